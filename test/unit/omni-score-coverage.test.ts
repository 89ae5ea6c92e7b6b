// `score` on an OmniBehavior folder holding a run of one user, not judged yet, beside the whole run: the text and the
// JSON say what the run covers and why it has no overall, with the CLI's judge command; every text line fits 120
// columns; the whole run prints its overall as before.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCommand, type CliOptions } from '../../src/cli/commands';
import { COMPONENT_LABELS } from '../../src/core/omni/fields';
import { judgeCommandLine } from '../../src/core/omni/overallReason';
import { OMNI_SAMPLE } from '../support/committedSample';

let root: string;
let mine: number;
let users: number;
let actions: number;

async function cli(opts: CliOptions = {}): Promise<string> {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((t) => out.push(String(t)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(await runCommand('score', [root], opts)).toBe(0);
    return out.join('');
  } finally {
    vi.restoreAllMocks();
  }
}

beforeAll(() => {
  root = join(mkdtempSync(join(tmpdir(), 'omni-score-coverage-')), 'omni');
  cpSync(OMNI_SAMPLE, root, { recursive: true });
  const rows = readFileSync(join(root, 'results', 'demo-sim', 'predictions.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { user_id: string; index: number; questions: Record<string, unknown>[] });
  const one = rows
    .filter((r) => r.user_id === 'u_1001')
    .map((r) => ({ ...r, questions: r.questions.map(({ judge_score: _, ...q }) => q) }));
  mine = one.length;
  users = new Set(readFileSync(join(root, 'test_actions.jsonl'), 'utf8').match(/"user_id": ?"[^"]+"/g)).size;
  actions = rows.length;
  mkdirSync(join(root, 'results', 'one-user'));
  writeFileSync(
    join(root, 'results', 'one-user', 'predictions.jsonl'),
    one.map((r) => JSON.stringify(r) + '\n').join(''),
  );
});
afterAll(() => rmSync(join(root, '..'), { recursive: true, force: true }));

describe('score on an OmniBehavior run of one user', () => {
  it('the text says its coverage and why no overall: not judged yet, with the judge command', async () => {
    const text = await cli();
    const covers = `1 of ${users} users, ${mine} of ${actions} test actions`;
    const [, whole, one] = text.split(/^Run /m);
    expect(one).toContain(`\nCovers ${covers}: every figure below is over these only\n`);
    const overall = one.split('\n').findIndex((l) => l.startsWith('Overall: '));
    const said = one
      .split('\n')
      .slice(overall)
      .join(' ')
      .replace(/\s+/g, ' ')
      .replace(/ Bias: .*/, '');
    expect(said).toContain(
      `Overall: — (not judged yet: ${judgeCommandLine(root, 'one-user')} scores the next_user_message answers, ` +
        `which give ${COMPONENT_LABELS.shopText}`,
    );
    expect(said).toContain(`the run covers ${covers})`);
    expect(text).not.toContain('a component is missing');
    expect(whole).toMatch(/\nOverall: \d+\.\d\n/);
    expect(whole).not.toContain('Covers');
    for (const l of text.split('\n')) expect(l.length, l).toBeLessThanOrEqual(120);
  });

  it('--json gives each run its coverage and the reason its overall is null', async () => {
    const json = JSON.parse(await cli({ json: true })) as {
      runs: { name: string; overall: number | null; overallReason: string | null; coverage: object }[];
    };
    const one = json.runs.find((r) => r.name === 'one-user')!;
    expect(one.overall).toBeNull();
    expect(one.overallReason).toMatch(/^not judged yet: `persona-lab judge .* --run one-user` scores /);
    expect(one.coverage).toEqual({
      users: { covered: 1, total: users },
      testActions: { covered: mine, total: actions },
      whole: false,
    });
    const whole = json.runs.find((r) => r.name === 'demo-sim')!;
    expect(whole.overallReason).toBeNull();
    expect(whole.coverage).toMatchObject({ whole: true, testActions: { covered: actions, total: actions } });
  });

  it('--format marks the run and footnotes what it covers; CSV gives a Coverage column', async () => {
    const covers = `1 of ${users} users, ${mine} of ${actions} test actions`;
    const md = await cli({ format: 'markdown' });
    expect(md).toMatch(/^\| one-user ‡ \|/m);
    expect(md).toContain(`\n- one-user: over ${covers}\n`);
    const csv = (await cli({ format: 'csv' })).split('\r\n');
    expect(csv[0].endsWith(',Overall,Coverage')).toBe(true);
    expect(csv.find((l) => l.startsWith('one-user,'))!.endsWith(`,"${covers}"`)).toBe(true);
    expect(await cli({ format: 'latex' })).toContain(`\none-user: over ${covers}\\par}`);
  });

  it('quotes a folder or run name the shell would split', () => {
    expect(judgeCommandLine('my runs/omni', "it's")).toBe(`\`persona-lab judge 'my runs/omni' --run 'it'\\''s'\``);
  });
});
