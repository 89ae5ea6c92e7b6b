// The benchmark's own prompt: requests rendered by a checkout's bench_task.py (here our stand-in module of the same
// shape, test/fixtures/reference-checkout) with its system message and parameters. Expected prompts come from
// Python directly, from the raw task lines, as bench_inference.py's rebuild_prompt_with_persona builds them.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SAMPLE } from '../support/committedSample';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRunCommand, type RunCliIo } from '../../src/cli/run';
import { readRunOrigin } from '../../src/core/spb/prompt/runOrigin';
import { BUILTIN_TEMPLATE_MARK } from '../../src/core/spb/prompt/runOrigin';
import { findReferenceCheckout, referenceSource, REFERENCE_PROMPT_NAME } from '../../src/core/spb/reference/source';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

const STAND_IN = resolve('test/fixtures/reference-checkout');
const USER = 'we_b5ce11fb65';
let server: ScriptedServer;
let root: string;

beforeAll(async () => {
  server = await startScriptedServer();
  root = mkdtempSync(join(tmpdir(), 'pl-reference-'));
  cpSync(SAMPLE, join(root, 'sample'), { recursive: true });
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function io(): { out: { stdout: string; stderr: string }; sink: RunCliIo } {
  const out = { stdout: '', stderr: '' };
  return { out, sink: { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env: {} } };
}

/** What the checkout's builder renders for one user's chain, each step receiving the scripted server's persona. */
function expectedPrompts(checkout: string, tasks: string, userId: string): string[] {
  const script = `
import json, sys
sys.path.insert(0, sys.argv[1])
from bench_task import BenchTaskBuilder
sys.stdout = sys.__stdout__
out = []
for line in open(sys.argv[2], encoding="utf-8"):
    if not line.strip():
        continue
    ut = json.loads(line)
    if ut["user_id"] != sys.argv[3]:
        continue
    prev = None
    for step in ut["prediction_tasks"]:
        out.append(BenchTaskBuilder(ut.get("platform", "")).format_prompt(
            username=ut["username"], bio=ut.get("bio", ""), batch_n_posts=step["posts_text"],
            candidate_pool=step["candidate_pool"], step_id=step["step_id"],
            total_steps=step.get("total_steps", len(ut["prediction_tasks"])), prev_persona=prev))
        prev = "persona of %s after step %s" % (ut["username"], step["step_id"])
print("@@" + json.dumps(out))
`;
  const text = execFileSync('python3', ['-c', script, checkout, tasks, userId], { encoding: 'utf8' });
  return JSON.parse(text.slice(text.indexOf('@@') + 2)) as string[];
}

function variant(name: string, edit: (task: string, inference: string) => [string, string]): string {
  const dir = join(root, 'variants', name);
  mkdirSync(dir, { recursive: true });
  const [task, inference] = edit(
    readFileSync(join(STAND_IN, 'bench_task.py'), 'utf8'),
    readFileSync(join(STAND_IN, 'bench_inference.py'), 'utf8'),
  );
  writeFileSync(join(dir, 'bench_task.py'), task);
  writeFileSync(join(dir, 'bench_inference.py'), inference);
  return dir;
}

describe('run --reference', () => {
  it("sends exactly what the checkout's builder renders, with its system message and parameters", async () => {
    server.requests.length = 0;
    const { out, sink } = io();
    const opts = { 'base-url': server.baseURL, model: 'm', platform: 'weibo', user: USER, concurrency: '1' };
    expect(await runRunCommand([join(root, 'sample')], { ...opts, out: 'ref', reference: STAND_IN }, sink)).toBe(0);
    expect(out.stderr).toContain(`prompt: ${REFERENCE_PROMPT_NAME} from ${STAND_IN}`);
    const want = expectedPrompts(STAND_IN, join(root, 'sample/data/weibo_inference_tasks.jsonl'), USER);
    expect(want.length).toBeGreaterThan(1);
    expect(server.requests.map((r) => r.prompt)).toEqual(want);
    for (const r of server.requests) {
      expect(r.system).toBe('STAND-IN system message: answer with JSON only.');
      const body = r.body as { temperature?: unknown; response_format?: unknown };
      expect(body.temperature).toBe(0);
      expect(body.response_format).toEqual({ type: 'json_object' });
    }
    const manifest = JSON.parse(readFileSync(join(root, 'sample/results/ref/run.json'), 'utf8')) as {
      template: { text: string; id: string; reference?: { checkout: string } };
    };
    expect(manifest.template.reference?.checkout).toBe(STAND_IN);
    expect(manifest.template.id).toMatch(/^bench_task\.py@[0-9a-f]{12}$/);
    expect(readRunOrigin(join(root, 'sample'), 'ref')).toBeNull();
  });

  it('is the default when the benchmark folder is a checkout; --no-reference and --template choose a template, named as not the benchmark’s', async () => {
    const inside = join(root, 'checkout');
    cpSync(STAND_IN, inside, { recursive: true });
    cpSync(SAMPLE, inside, { recursive: true });
    expect(findReferenceCheckout(join(inside, 'data'), inside)).toBe(inside);
    expect(findReferenceCheckout(inside)).toBe(inside);
    const opts = { 'base-url': server.baseURL, model: 'm', platform: 'weibo', user: USER };
    const a = io();
    server.requests.length = 0;
    expect(await runRunCommand([inside], { ...opts, out: 'auto' }, a.sink)).toBe(0);
    expect(a.out.stderr).toContain(`prompt: ${REFERENCE_PROMPT_NAME} from ${inside}`);
    // Which file runs is said before it runs.
    expect(a.out.stderr.indexOf(`running ${join(inside, 'bench_task.py')}`)).toBeGreaterThanOrEqual(0);
    expect(a.out.stderr.indexOf('running ')).toBeLessThan(a.out.stderr.indexOf('prompt: '));
    expect(server.requests.every((r) => r.prompt.startsWith('STAND-IN TASK'))).toBe(true);
    const b = io();
    server.requests.length = 0;
    expect(await runRunCommand([inside], { ...opts, out: 'own', 'no-reference': true }, b.sink)).toBe(0);
    expect(b.out.stderr).toContain(`prompt: ${BUILTIN_TEMPLATE_MARK}`);
    expect(server.requests.some((r) => r.prompt.startsWith('STAND-IN'))).toBe(false);
    expect(readRunOrigin(inside, 'own')?.mark).toBe(BUILTIN_TEMPLATE_MARK);
    const c = io();
    expect(await runRunCommand([inside], { ...opts, out: 'x', temperature: '0.5' }, c.sink)).toBe(2);
    expect(c.out.stderr).toContain('pass --no-reference');
  });

  it('never runs a checkout in a parent of the benchmark folder, not even for --dry-run', async () => {
    // A grandparent holding the two reference files, whose bench_task.py writes a marker when imported.
    const top = join(root, 'hostile');
    cpSync(STAND_IN, top, { recursive: true });
    const marker = join(root, 'hostile-ran');
    const task = join(top, 'bench_task.py');
    writeFileSync(task, `open(${JSON.stringify(marker)}, "w").write("ran")\n` + readFileSync(task, 'utf8'));
    const bench = join(top, 'clones', 'bench');
    cpSync(SAMPLE, bench, { recursive: true });
    expect(findReferenceCheckout(bench)).toBeNull();
    expect(findReferenceCheckout(join(bench, 'data'), bench)).toBeNull();
    const { out, sink } = io();
    const code = await runRunCommand(
      [bench],
      { 'base-url': server.baseURL, model: 'm', out: 'dry', 'dry-run': true, platform: 'weibo', user: USER },
      sink,
    );
    expect(code, out.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(out.stderr).not.toContain(top + '/bench_task.py');
    expect(out.stderr).toContain(`prompt: ${BUILTIN_TEMPLATE_MARK}`);
  });

  it('a checkout that cannot render stops before anything is sent, saying why', async () => {
    const cases: [string, string, RegExp][] = [
      [variant('no-create', (t, i) => [t, i.replace('.create(', '.make(')]), 'x', /_real_inference makes no \.create/],
      [
        variant('max-tokens', (t, i) => [t, i.replace('temperature=0.0,', 'temperature=0.0, max_tokens=99,')]),
        'x',
        /bench_inference\.py:\d+: the reference sends max_tokens=99/,
      ],
      [
        variant('broken', (t, i) => [t.replace('import json', 'import json_missing_module'), i]),
        'x',
        /ModuleNotFoundError/,
      ],
      [STAND_IN, '/nonexistent/python3', /Python was not found/],
    ];
    for (const [dir, python, why] of cases) {
      server.requests.length = 0;
      const { out, sink } = io();
      const code = await runRunCommand(
        [join(root, 'sample')],
        { 'base-url': server.baseURL, model: 'm', out: 'bad', reference: dir, ...(python === 'x' ? {} : { python }) },
        sink,
      );
      expect(code).toBe(1);
      expect(out.stderr).toMatch(why);
      expect(out.stderr).toContain('--no-reference');
      expect(server.requests).toHaveLength(0);
    }
  });
});

describe('the reference driver', () => {
  it('bounds a builder that never answers, and names one that raises', async () => {
    const hang = variant('hang', (t, i) => [
      t
        .replace('import json', 'import json, time')
        .replace('pool_str = json', 'time.sleep(60)\n        pool_str = json'),
      i,
    ]);
    const source = await referenceSource(hang, { answerTimeoutMs: 300 });
    const input = {
      user: { platform: 'weibo', username: 'U', bio: '', userId: 'u' },
      step: { stepId: 1, totalSteps: 1, pool: ['#a#'] },
      personaIn: null,
      postsText: 'p',
    } as unknown as Parameters<typeof source.render>[0];
    await expect(source.render(input)).rejects.toThrow(/did not answer within 0.3 s/);
    source.close();
    const raising = variant('raise', (t, i) => [
      t.replace('pool_str = json', 'raise ValueError("boom")\n        pool_str = json'),
      i,
    ]);
    const r = await referenceSource(raising);
    await expect(r.render(input)).rejects.toThrow(/bench_task\.py: ValueError: boom/);
    // the process goes on after an error answer
    await expect(r.render(input)).rejects.toThrow(/boom/);
    r.close();
    const ok = await referenceSource(STAND_IN);
    expect((await ok.render(input)).prompt).toContain('USER=U STEP=1 bio: none given');
    ok.close();
  });
});
