// Each command takes its own options: an option it does not declare exits 2 naming it, `<command> --help` lists its
// options with two examples, and every CLI example of the README and docs/ parses with the options declared.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_SPECS, COMMANDS, parseCli } from '../../src/cli/spec';
import { OMNI_SAMPLE, PMEM_SAMPLE, SAMPLE } from '../support/committedSample';

const cli = resolve('dist/cli.js');
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

describe('a strict CLI', () => {
  it('refuses an option the command does not take, naming it, with exit 2', () => {
    const r = run('validate', SAMPLE, '--model', 'foo', '--concurrency', '3');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--model is not an option of validate');
    expect(run('score', SAMPLE, '--users', '3').stderr).toContain('--users is not an option of score');
    expect(run('labels', 'summary', SAMPLE, '--out', 'x').stderr).toContain('--out is not an option of labels summary');
  });

  it("refuses, in a format's own run, an option only another format's run takes", () => {
    const endpoint = ['--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--dry-run'];
    const omni = run('run', OMNI_SAMPLE, '--out', 'x', '--size', '32k', ...endpoint);
    expect(omni.status).toBe(2);
    expect(omni.stderr).toContain('--size: not an option of an OmniBehavior run');
    const pm = run('run', PMEM_SAMPLE, '--size', '32k', '--max-history-tokens', '9', '--template', 't', ...endpoint);
    expect(pm.status).toBe(2);
    expect(pm.stderr).toContain('--max-history-tokens, --template: not an option of a PersonaMem run');
    // each usage is in `run --help`, and each format's option parses
    const help = run('run', '--help').stdout;
    for (const dir of ['<omnibehavior dir>', '<personamem dir>']) expect(help).toContain(`run ${dir}`);
    expect(run('run', PMEM_SAMPLE, '--size', '32k', ...endpoint).status).toBe(0);
  });

  it('prints a command’s options and two examples for <command> --help', () => {
    const r = run('run', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Options of run:\n');
    expect(r.stdout).toMatch(/\n {2}--base-url URL\n/);
    const examples = r.stdout.split('Examples:\n')[1]?.trimEnd().split('\n') ?? [];
    expect(examples).toHaveLength(2);
    for (const e of examples) expect(e).toMatch(/^ {2}persona-lab run /);
    expect(run('validate', '-h').stdout).toContain('Options of validate:\n  --json\n  --no-cache\n');
  });

  it('leads the top-level help with the five most used commands', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    const at = lines.indexOf('Most used:');
    expect(at).toBe(2);
    expect(lines.slice(at + 1, at + 6).map((l) => l.split(' ')[3])).toEqual([
      'score',
      'validate',
      'run',
      'audit',
      'labels',
    ]);
    expect(lines[at + 6]).toBe('');
  });

  it('has help examples that parse with the options the command declares', () => {
    for (const spec of ALL_SPECS)
      for (const e of spec.examples) {
        const argv = e.split(' ');
        const parsed = parseCli(argv, 'top');
        expect(parsed.kind, `${spec.name}: ${e}`).toBe('command');
      }
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
  });
});

/** The words of a command line as a shell splits them (quotes dropped), up to a comment, pipe or redirection. */
function words(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  for (const raw of text.trim().split(/\s+/)) {
    if (depth === 0 && ['#', '|', '>', '2>', '&&', ';', '&'].includes(raw)) break;
    depth += (raw.match(/\[/g) ?? []).length - (raw.match(/\]/g) ?? []).length;
    // "--format …": an elided value is still a value.
    if (/^[[]?(\.\.\.|…)[\]]*$/.test(raw)) {
      out.push('VALUE');
      continue;
    }
    const w = raw
      .replace(/^['"]|['"]$/g, '')
      .replace(/[[\]]/g, '')
      .replace(/(\.\.\.|…)$/, '');
    if (w === '|' || w === '') continue;
    out.push(w);
  }
  return out;
}

/** Every CLI invocation written in README.md and docs/*.md (code blocks and inline code), with where it is. */
function docExamples(): { where: string; argv: string[] }[] {
  const files = [
    'README.md',
    ...readdirSync('docs')
      .filter((f) => f.endsWith('.md'))
      .map((f) => join('docs', f)),
  ];
  const out: { where: string; argv: string[] }[] = [];
  const invocation = /(?:^|[\s`=])(?:npx\s+)?(?:persona-lab|node\s+dist\/cli\.js)\s+([^`]*)/g;
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    let fenced = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trimStart().startsWith('```')) {
        fenced = !fenced;
        continue;
      }
      let texts: string[];
      if (fenced) {
        let joined = line;
        while (joined.endsWith('\\') && i + 1 < lines.length) joined = joined.slice(0, -1) + ' ' + lines[++i];
        texts = [joined];
      } else texts = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      for (const t of texts)
        for (const m of t.matchAll(invocation)) {
          const argv = words(m[1]!);
          const command = argv[0];
          // A placeholder ("persona-lab <command> --help") names no command.
          if (!command || /^[<A-Z]/.test(command)) continue;
          out.push({ where: `${file}:${i + 1}`, argv });
        }
    }
  }
  return out;
}

describe('the CLI examples of README.md and docs/', () => {
  it('use only options their command declares', () => {
    const examples = docExamples();
    expect(examples.length).toBeGreaterThan(30);
    const wrong = examples.flatMap(({ where, argv }) => {
      const parsed = parseCli(argv, 'top');
      return parsed.kind === 'usage' ? [`${where}: persona-lab ${argv.join(' ')}: ${parsed.message}`] : [];
    });
    expect(wrong).toEqual([]);
    // What the doc lines were read as, for a failure above.
    expect(examples.map((e) => e.argv[0])).toContain('long-context');
  });
});
