// One meaning per colour: runs, error classes, scenes and the data's own figures never share a look,
// whatever colours the theme gives (including themes where hues coincide), and each kind tells its members apart.
import { describe, expect, it } from 'vitest';
import type { Scene } from '../../src/core/omni/types';
import type { ErrorKey } from '../../src/core/spb/score/figures';
import {
  areaLook,
  dataEncoding,
  markLook,
  runEncoding,
  type Encoding,
  type PaletteColours,
} from '../../webview/shared/palettes';
import { errorEncoding } from '../../webview/spb/shared/palette';
import { SCENE_HUES, sceneEncoding } from '../../webview/omni/palette';

const ERRORS: ErrorKey[] = ['Error_Decay', 'Error_Peer', 'Error_Viral', 'Error_Random'];
const SCENES = Object.keys(SCENE_HUES) as Scene[];

const THEMES: Record<string, PaletteColours> = {
  'Dark Modern': {
    blue: '#3794ff',
    orange: '#d18616',
    green: '#89d185',
    purple: '#b180d7',
    red: '#f14c4c',
    yellow: '#cca700',
    fg: '#cccccc',
    muted: '#9d9d9d',
  },
  'Light Modern': {
    blue: '#1a85ff',
    orange: '#d18616',
    green: '#388a34',
    purple: '#652d90',
    red: '#e51400',
    yellow: '#bf8803',
    fg: '#3b3b3b',
    muted: '#717171',
  },
  // Hues that coincide with each other and with the text colours: only the fills can keep the kinds apart.
  'all one colour': {
    blue: '#ffffff',
    orange: '#ffffff',
    green: '#ffffff',
    purple: '#ffffff',
    red: '#ffffff',
    yellow: '#ffffff',
    fg: '#FFFFFF',
    muted: ' #ffffff',
  },
};

function kinds(c: PaletteColours): Record<string, Encoding[]> {
  return {
    run: Array.from({ length: 12 }, (_, i) => runEncoding(c, i)),
    error: ERRORS.map((k) => errorEncoding(c, k)),
    scene: SCENES.map((s) => sceneEncoding(c, s)),
    data: [dataEncoding(c)],
  };
}

describe('chart palettes', () => {
  for (const [name, colours] of Object.entries(THEMES)) {
    it(`never gives two kinds the same colour and fill (${name})`, () => {
      const owner = new Map<string, string>();
      for (const [kind, encodings] of Object.entries(kinds(colours)))
        for (const e of encodings) {
          expect(e.kind).toBe(kind);
          const look = areaLook(e);
          const other = owner.get(look);
          if (other !== undefined) expect(other, `${look} is both ${other} and ${kind}`).toBe(kind);
          owner.set(look, kind);
        }
    });
  }

  it('tells the error classes apart by their hatch even when the theme has one colour', () => {
    const c = THEMES['all one colour'];
    expect(new Set(ERRORS.map((k) => areaLook(errorEncoding(c, k)))).size).toBe(ERRORS.length);
  });

  it('gives twelve runs twelve different marks, and six runs six theme hues', () => {
    const c = THEMES['Dark Modern'];
    const runs = Array.from({ length: 12 }, (_, i) => runEncoding(c, i));
    expect(new Set(runs.map(markLook)).size).toBe(12);
    expect(new Set(runs.slice(0, 6).map((r) => r.color))).toEqual(
      new Set([c.blue, c.orange, c.green, c.purple, c.red, c.yellow]),
    );
    expect(runs.every((r) => r.fill === 'solid')).toBe(true);
  });

  it('gives the six scenes six hues, none of them blue for Video Browsing (the first run is blue)', () => {
    const c = THEMES['Dark Modern'];
    expect(new Set(SCENES.map((s) => sceneEncoding(c, s).color)).size).toBe(6);
    expect(sceneEncoding(c, 'Video Browsing').color).not.toBe(runEncoding(c, 0).color);
  });

  it('draws error classes in the foreground colour, never in a run hue of the theme', () => {
    const c = THEMES['Light Modern'];
    const hues = new Set(Array.from({ length: 6 }, (_, i) => runEncoding(c, i).color));
    for (const k of ERRORS) expect(hues.has(errorEncoding(c, k).color), k).toBe(false);
  });
});
