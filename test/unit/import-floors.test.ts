// The layers of ARCHITECTURE.md, checked on the sources: every import (`import`, `import type`, `export … from`,
// `import()` and `import('…').T` types) among src/**/*.ts and webview/**/*.ts points down or sideways, never up,
// and no file reaches itself again through its imports. Floors, lowest first:
//   src/core       may import src/core
//   src/shared     may import src/core, src/shared
//   src/cli        may import src/core, src/shared, src/cli
//   src/extension  may import src/core, src/shared, src/extension
//   webview        may import src/core, src/shared, webview (the pages use pure core models: spans, step models)
// A failure names each offending import, and each cycle as the list of its files.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..', '..');

type Floor = 'core' | 'shared' | 'cli' | 'extension' | 'webview';

const MAY_IMPORT: Record<Floor, readonly Floor[]> = {
  core: ['core'],
  shared: ['core', 'shared'],
  cli: ['core', 'shared', 'cli'],
  extension: ['core', 'shared', 'extension'],
  webview: ['core', 'shared', 'webview'],
};

function floorOf(file: string): Floor | undefined {
  if (file.startsWith('src/core/')) return 'core';
  if (file.startsWith('src/shared/')) return 'shared';
  if (file.startsWith('src/cli/')) return 'cli';
  if (file.startsWith('src/extension/')) return 'extension';
  if (file.startsWith('webview/')) return 'webview';
  return undefined;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** Every module specifier the file names, type-only ones included. */
function specifiers(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) out.push(expression.text);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) out.push(argument.literal.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteralLike(first)) out.push(first.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The repository-relative file a relative specifier names (bundler resolution); undefined for a package or asset. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const named = resolve(ROOT, dirname(from), specifier);
  if (/\.(css|svg|html|json|txt|py)$/.test(named) && existsSync(named)) return undefined; // an asset the bundle inlines
  const base = named.replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.d.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate)) return relative(ROOT, candidate).split('\\').join('/');
  }
  throw new Error(`${from}: cannot resolve '${specifier}'`);
}

function importGraph(): Map<string, string[]> {
  const files = [...sourceFiles('src'), ...sourceFiles('webview')].sort();
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const specifier of specifiers(file)) {
      const target = resolveSpecifier(file, specifier);
      if (target !== undefined && !target.endsWith('.d.ts')) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Strongly connected components with more than one file (or a file importing itself), each sorted. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return found.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

function upwardImports(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    const floor = floorOf(file);
    if (floor === undefined) continue;
    for (const target of targets) {
      const targetFloor = floorOf(target);
      if (targetFloor === undefined || !MAY_IMPORT[floor].includes(targetFloor)) {
        out.push(`${file} (${floor}) imports ${target} (${targetFloor ?? 'outside the floors'})`);
      }
    }
  }
  return out;
}

describe('import floors', () => {
  const graph = importGraph();

  it('reads the sources it checks, type-only imports included', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('src/extension/main.ts')?.length).toBeGreaterThan(5);
    // `import type { OpenBenchmark } from '../types'`, and `import type * as vscode` (a package) left out
    expect(graph.get('src/extension/benchmarks/spb/roots.ts')).toContain('src/extension/benchmarks/types.ts');
    expect(graph.get('src/extension/benchmarks/types.ts')).toEqual([
      'src/core/formats/index.ts',
      'src/core/io/diagnostics.ts',
      'src/extension/tree/roots.ts',
    ]);
  });

  it('finds a cycle as the list of its files', () => {
    const toy = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(cycles(toy)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });

  it('imports only from the same floor or a lower one', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('has no import cycles (type-only imports included)', () => {
    expect(cycles(graph).map((files) => `${files.length} files: ${files.join(', ')}`)).toEqual([]);
  });
});
