// Hand-made PersonaMem folders in the release's layout, for tests that need a figure they can compute by hand.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const QUESTION_HEADER = [
  'persona_id',
  'question_id',
  'question_type',
  'topic',
  'context_length_in_tokens',
  'context_length_in_letters',
  'distance_to_ref_in_blocks',
  'distance_to_ref_in_tokens',
  'num_irrelevant_tokens',
  'distance_to_ref_proportion_in_context',
  'user_question_or_message',
  'correct_answer',
  'all_options',
  'shared_context_id',
  'end_index_in_shared_context',
];

const cell = (v: string | number) => {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
export const csv = (rows: (string | number)[][]) => rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';

export interface HandQuestion {
  id: string;
  persona?: number;
  type?: string;
  topic?: string;
  gold?: string;
  options?: string;
  context?: string;
  end?: number | string;
  blocks?: number | string;
}

const OPTIONS = `['(a) tea', "(b) it's coffee", '(c) water', '(d) juice']`;

/** One split "32k": contexts ctx1 (6 messages, two sessions) and ctx2 (4), the questions, and results per run. */
export function handFolder(questions: HandQuestion[], runs: Record<string, (string | number)[][]> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-pmem-'));
  const session = (n: number, k: number) => [
    { role: 'system', content: `Persona profile ${n}` },
    ...Array.from({ length: k }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${n}.${i}` })),
  ];
  writeFileSync(
    join(dir, 'shared_contexts_32k.jsonl'),
    JSON.stringify({ ctx1: [...session(1, 2), ...session(2, 2)] }) +
      '\n' +
      JSON.stringify({ ctx2: session(3, 3) }) +
      '\n',
  );
  const rows = questions.map((q) => [
    q.persona ?? 0,
    q.id,
    q.type ?? 'recall_user_shared_facts',
    q.topic ?? 'cooking',
    100,
    400,
    q.blocks ?? 1,
    50,
    0,
    '50.00%',
    `question ${q.id}`,
    q.gold ?? '(a)',
    q.options ?? OPTIONS,
    q.context ?? 'ctx1',
    q.end ?? 3,
  ]);
  writeFileSync(join(dir, 'questions_32k.csv'), csv([QUESTION_HEADER, ...rows]));
  mkdirSync(join(dir, 'results'));
  for (const [name, body] of Object.entries(runs))
    writeFileSync(join(dir, 'results', `eval_results_32k_${name}.csv`), csv(body));
  return dir;
}

/** The columns of a results file that scoring reads (run_evaluation writes more). */
export const RESULT_HEADER = [
  'score',
  'persona_id',
  'question_id',
  'user_question_or_message',
  'question_type',
  'topic',
  'model_response',
  'correct_answer',
];

/** A results file's rows in the authors' columns (run_evaluation), from [question id, response, gold]. */
export function resultRows(answers: [string, string, string][], score?: (i: number) => string): (string | number)[][] {
  return [
    RESULT_HEADER,
    ...answers.map(([id, response, gold], i) => [score?.(i) ?? '', 0, id, `question ${id}`, 'x', 'y', response, gold]),
  ];
}

/** The built CLI (dist/cli.js) run as a process: its exit status and what it printed. */
export function runCli(
  cli: string,
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = { stdout: '', stderr: '' };
    child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
    child.on('error', rej);
    child.on('close', (status) => res({ status, ...out }));
  });
}
