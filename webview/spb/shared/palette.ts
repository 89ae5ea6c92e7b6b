// StreamProfileBench's error classes in the charts: each its own hatch in the foreground colour
// (webview/shared/palettes.ts gives every kind of series its look).
import type { ErrorKey } from '../../../src/core/spb/score/figures';
import type { Encoding, Fill, PaletteColours } from '../../shared/palettes';

export const ERROR_FILLS: Record<ErrorKey, Fill> = {
  Error_Decay: 'diagonal',
  Error_Peer: 'antidiagonal',
  Error_Viral: 'cross',
  Error_Random: 'horizontal',
};

/** An error class: its own hatch in the foreground colour (never a run's solid hue). */
export function errorEncoding(c: PaletteColours, key: ErrorKey): Encoding {
  return { kind: 'error', color: c.fg, fill: ERROR_FILLS[key], style: 'rect', dash: [] };
}
