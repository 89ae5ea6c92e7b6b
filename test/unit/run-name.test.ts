// `run --dry-run` refuses the run names the real run refuses, through the one name check.
import { describe, expect, it } from 'vitest';
import { runRunCommand, type RunCliIo } from '../../src/cli/run';
import { Usage } from '../../src/cli/runArgs';
import { parseRunArgs } from '../../src/cli/formats/spb/runArgs';
import { SAMPLE } from '../support/committedSample';

const base = { 'base-url': 'http://127.0.0.1:9/v1', model: 'm', platform: 'weibo' };

describe('run names', () => {
  for (const out of ['../escape', '..', 'a/b', 'has space', 'é']) {
    it(`refuses ${JSON.stringify(out)} with and without --dry-run`, () => {
      for (const dry of [true, false])
        expect(() => parseRunArgs([SAMPLE], { ...base, out, 'dry-run': dry }, {})).toThrow(Usage);
    });
  }

  it('accepts the names the runner accepts', () => {
    for (const out of ['my-run', 'v1.2_b', '.hidden-ok'])
      expect(parseRunArgs([SAMPLE], { ...base, out, 'dry-run': true }, {}).out).toBe(out);
  });

  it('a dry run with a refused name exits 2 as a usage error before any estimate', async () => {
    const err: string[] = [];
    const io: RunCliIo = { stdout: () => undefined, stderr: (t) => void err.push(t), env: {} };
    const code = await runRunCommand([SAMPLE], { ...base, out: '../../escape', 'dry-run': true }, io);
    expect(code).toBe(2);
    expect(err.join('')).toMatch(/invalid run name "\.\.\/\.\.\/escape"/);
    expect(err.join('')).not.toMatch(/estimate: \d/);
  });
});
