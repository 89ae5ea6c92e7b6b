// What every format's re-run shares, with `vscode` stood in: a registered draft kind is found by its header, says its
// problems, and a draft with a problem is refused with its file and line before anything is sent; the source of the
// requests is the checkout's only in a trusted workspace (else the format's template, and why), restarted when the
// checkout's code changes.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const said: string[] = [];
const env = { trusted: true, folders: [] as string[] };

vi.mock('vscode', async () => {
  const { EventEmitter, Disposable } = (await import('../support/vscodeEvents')).vscodeEvents();
  return {
    EventEmitter,
    Disposable,
    window: {
      showErrorMessage: (m: string) => said.push(m),
      showWarningMessage: (m: string) => said.push(m),
    },
    workspace: {
      get isTrusted() {
        return env.trusted;
      },
      get workspaceFolders() {
        return env.folders.map((f) => ({ uri: { fsPath: f } }));
      },
      asRelativePath: (u: { fsPath: string }) => u.fsPath,
      getConfiguration: () => ({ inspect: () => undefined, get: () => undefined }),
    },
  };
});

const { draftKindOf, registerDraftKind, registerFallbackDraftKind } =
  await import('../../src/extension/rerun/draftKinds');
const { ReferenceSources } = await import('../../src/extension/rerun/referenceSources');

beforeEach(() => {
  said.length = 0;
  env.trusted = true;
  env.folders = [];
});

describe('draft kinds', () => {
  it('a registered kind owns its drafts; a problem is said at its line and nothing is sent', async () => {
    const sent: string[] = [];
    const reg = registerDraftKind<string>({
      owns: (t) => t.startsWith('kind: x'),
      parse: (t) =>
        t.includes('bad')
          ? { ok: false, problems: [{ line: 3, message: 'bad: not allowed' }] }
          : { ok: true, draft: t },
      send: async (_doc, d) => {
        sent.push(d);
      },
    });
    expect(draftKindOf('kind: y')).toBeUndefined();
    const kind = draftKindOf('kind: x\nok')!;
    expect(kind.problems('kind: x\nbad')).toEqual([{ line: 3, message: 'bad: not allowed' }]);
    expect(kind.problems('kind: x\nok')).toEqual([]);
    const doc = (text: string) => ({ getText: () => text, uri: { fsPath: 'drafts/a.pldraft' } });
    await kind.send(doc('kind: x\nbad') as never);
    expect(sent).toEqual([]);
    expect(said).toEqual(['Persona Lab: drafts/a.pldraft:3: bad: not allowed']);
    await kind.send(doc('kind: x\nok') as never);
    expect(sent).toEqual(['kind: x\nok']);
    reg.dispose();
    expect(draftKindOf('kind: x\nok')).toBeUndefined();
  });

  it('a header kind is asked before the fallback, whichever came first; with neither, no kind', async () => {
    expect(draftKindOf('kind: x\nok')).toBeUndefined();
    const sent: string[] = [];
    const doc = (text: string) => ({ getText: () => text, uri: { fsPath: 'drafts/a.pldraft' } }) as never;
    const fallback = registerFallbackDraftKind<string>({
      parse: (t) => (t === '' ? { ok: false, problems: [{ line: 1, message: 'empty' }] } : { ok: true, draft: t }),
      send: async (_doc, d) => {
        sent.push(`step ${d}`);
      },
      commands: [{ title: 'Save', tooltip: 'save it', command: 'x.save' }],
    });
    const header = registerDraftKind<string>({
      owns: (t) => t.startsWith('kind: x'),
      parse: (t) => ({ ok: true, draft: t }),
      send: async (_doc, d) => {
        sent.push(`x ${d}`);
      },
    });
    await draftKindOf('kind: x\nok')!.send(doc('kind: x\nok'));
    await draftKindOf('step: weibo/u/1')!.send(doc('step: weibo/u/1'));
    expect(sent).toEqual(['x kind: x\nok', 'step step: weibo/u/1']);
    expect(draftKindOf('kind: x')!.commands).toEqual([]);
    expect(draftKindOf('step: weibo/u/1')!.commands.map((c) => c.command)).toEqual(['x.save']);
    expect(draftKindOf('')!.problems('')).toEqual([{ line: 1, message: 'empty' }]);
    fallback.dispose();
    expect(draftKindOf('step: weibo/u/1')).toBeUndefined();
    expect(draftKindOf('kind: x')).toBeDefined();
    header.dispose();
    expect(draftKindOf('kind: x')).toBeUndefined();
  });
});

describe('reference sources', () => {
  function checkoutWith(code: string): { dir: string; bench: string } {
    const dir = mkdtempSync(join(tmpdir(), 'pl-ref-'));
    writeFileSync(join(dir, 'code.py'), code);
    const bench = join(dir, 'data');
    mkdirSync(bench);
    return { dir, bench };
  }

  const started: string[] = [];
  const closed: string[] = [];
  const kind = {
    logName: 'test reference',
    noun: 'request',
    file: 'code.py',
    isCheckout: (d: string) => existsSync(join(d, 'code.py')),
    find: (from: string, within: string) =>
      [from, dirname(from)].find((d) => d.startsWith(within) && existsSync(join(d, 'code.py'))) ?? null,
    hash: (d: string) => readFileSync(join(d, 'code.py'), 'utf8'),
    start: async (d: string) => {
      const name = `checkout ${started.length}`;
      started.push(d);
      return {
        name,
        close: () => {
          closed.push(name);
        },
      };
    },
    fallback: () => ({ name: 'our template', close: () => undefined }),
  };

  it('the checkout’s code only in a trusted workspace, once, and again when its code changes', async () => {
    const { dir, bench } = checkoutWith('v1');
    env.folders = [dir];
    const sources = new ReferenceSources(kind, () => bench);
    env.trusted = false;
    const untrusted = await sources.get();
    expect(untrusted.source.name).toBe('our template');
    expect(untrusted.why).toBe(
      `The benchmark's request (code.py in ${dir}) runs the checkout's code, so it needs a trusted workspace.`,
    );
    expect(started).toEqual([]);
    env.trusted = true;
    expect((await sources.get()).source.name).toBe('checkout 0');
    expect((await sources.get()).source.name).toBe('checkout 0');
    writeFileSync(join(dir, 'code.py'), 'v2');
    expect((await sources.get()).source.name).toBe('checkout 1');
    expect(closed).toEqual(['checkout 0']);
    sources.dispose();
    await new Promise((r) => setTimeout(r, 0));
    expect(closed).toEqual(['checkout 0', 'checkout 1']);
  });

  it('no checkout: the template, without a reason to give', async () => {
    const bench = mkdtempSync(join(tmpdir(), 'pl-noref-'));
    env.folders = [bench];
    const sources = new ReferenceSources(kind, () => bench);
    expect(await sources.get()).toEqual({ source: expect.objectContaining({ name: 'our template' }) });
  });
});
