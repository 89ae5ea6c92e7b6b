// OmniBehavior's scenes in the charts: each its own hue, dotted (webview/shared/palettes.ts gives every kind of
// series its look).
import type { Scene } from '../../src/core/omni/types';
import type { Encoding, Hue, PaletteColours } from '../shared/palettes';

/** The scenes in a fixed order, each with its own hue (so a scene keeps its colour whichever scenes a user has). */
export const SCENE_HUES: Record<Scene, Hue> = {
  'Video Browsing': 'green',
  'Live Streaming': 'purple',
  Advertisement: 'yellow',
  'E-commerce': 'red',
  'Search Behavior': 'orange',
  'Customer Service': 'blue',
};

/** A scene: dots in its hue over a tint of it (never a run's solid fill of the same hue). */
export function sceneEncoding(c: PaletteColours, scene: Scene): Encoding {
  return { kind: 'scene', color: c[SCENE_HUES[scene]], fill: 'dots', style: 'circle', dash: [] };
}
