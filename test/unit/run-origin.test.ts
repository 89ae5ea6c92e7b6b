// Runs made by Persona Lab carry what prompt made them: its built-in template or a template of the user's, both in
// our words and not the benchmark's prompt. A run without run.json (released, or the reference runner's) has no mark.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCommand, type CliOptions } from '../../src/cli/commands';
import { newManifest } from '../../src/core/runner/manifest';
import { SPB_RUN_FILES } from '../../src/core/spb/run/runFiles';
import { DEFAULT_TEMPLATE, templateId } from '../../src/core/spb/prompt/prompt';
import { BUILTIN_TEMPLATE_MARK, readRunOrigin } from '../../src/core/spb/prompt/runOrigin';
import { SAMPLE } from '../support/committedSample';

async function cli(args: string[], opts: CliOptions = {}) {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((t) => out.push(String(t)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(await runCommand('score', args, opts)).toBe(0);
    return out.join('');
  } finally {
    vi.restoreAllMocks();
  }
}

/** A copy of sample/ where runs `ours` (built-in template) and `mine` (another template) were made by Persona Lab. */
function folder(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'pl-origin-')), 'bench');
  cpSync(SAMPLE, dir, { recursive: true });
  for (const [run, template] of [
    ['ours', DEFAULT_TEMPLATE],
    ['mine', 'Pick {{k}} of {{pool_json}} for {{posts}}'],
  ] as const) {
    cpSync(join(dir, 'results', 'demo-llm'), join(dir, 'results', run), { recursive: true });
    const m = newManifest(
      {
        name: run,
        template,
        systemMessage: 'S',
        baseURL: 'http://127.0.0.1:1/v1',
        model: 'm',
        temperature: 0,
        maxTokens: null,
        personaMode: 'full',
        selection: { platforms: ['weibo'], userId: null, fromStep: 1, startPersona: { kind: 'none' } },
      },
      SPB_RUN_FILES,
    );
    writeFileSync(join(dir, 'results', run, 'run.json'), JSON.stringify(m));
  }
  return dir;
}

describe('which prompt made a run', () => {
  const dir = folder();

  it('reads run.json: the built-in template, another template, or no mark', () => {
    expect(readRunOrigin(dir, 'ours')).toEqual({
      template: 'builtin',
      templateId: templateId(DEFAULT_TEMPLATE),
      mark: BUILTIN_TEMPLATE_MARK,
    });
    expect(readRunOrigin(dir, 'mine')?.mark).toMatch(
      /^Persona Lab run with template [0-9a-f]{12}, not the benchmark's prompt$/,
    );
    expect(readRunOrigin(dir, 'demo-llm')).toBeNull();
    writeFileSync(join(dir, 'results', 'random', 'run.json'), '{ not json');
    expect(readRunOrigin(dir, 'random')).toBeNull();
  });

  it('score --json gives each run its origin; the text tables name the marked runs; CSV stays bare', async () => {
    const json = JSON.parse(await cli([dir], { json: true })) as { runs: { name: string; origin: unknown }[] };
    const origin = Object.fromEntries(json.runs.map((r) => [r.name, r.origin]));
    expect(origin['demo-llm']).toBeNull();
    expect(origin.ours).toMatchObject({ template: 'builtin', mark: BUILTIN_TEMPLATE_MARK });
    expect(origin.mine).toMatchObject({ template: 'own' });
    const text = await cli([dir]);
    expect(text).toContain(`  ours: ${BUILTIN_TEMPLATE_MARK}\n`);
    expect(text).toMatch(/ {2}mine: Persona Lab run with template [0-9a-f]{12}, not the benchmark's prompt\n/);
    expect(text).not.toMatch(/demo-llm: Persona Lab/);
    expect(await cli([dir], { format: 'markdown' })).toContain(`- ours: ${BUILTIN_TEMPLATE_MARK}`);
    expect(await cli([dir], { format: 'latex' })).toContain(`% ours: ${BUILTIN_TEMPLATE_MARK}`);
    expect(await cli([dir], { format: 'csv' })).not.toContain('not the benchmark');
  });
});
