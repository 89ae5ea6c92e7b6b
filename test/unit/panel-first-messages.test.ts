// A new ShownPanel's page gets what its first refresh() posted in its HTML (PanelHost's deferred load), and nothing is
// posted to the page before it says `ready`. The HTML shell writes those messages into one <body> attribute that
// reads back, through an HTML parser's entity decoding, as the same JSON, whatever text the dataset holds.
import { describe, expect, it, vi } from 'vitest';

interface FakePanel {
  htmls: string[];
  posted: unknown[];
  receive(m: unknown): void;
}
const panels: FakePanel[] = [];

vi.mock('vscode', async () => {
  const { EventEmitter, Disposable } = (await import('../support/vscodeEvents')).vscodeEvents();
  const uri = (path: string) => ({ path, toString: () => `https://webview.test${path}`, fsPath: path });
  return {
    EventEmitter,
    Disposable,
    ViewColumn: { Active: -1 },
    Uri: { joinPath: (base: { path: string }, ...parts: string[]) => uri([base.path, ...parts].join('/')) },
    window: {
      createWebviewPanel: () => {
        const messages = new EventEmitter<unknown>();
        const fake: FakePanel = { htmls: [], posted: [], receive: (m) => messages.fire(m) };
        panels.push(fake);
        return {
          visible: true,
          active: true,
          viewColumn: 1,
          reveal: () => {},
          onDidDispose: () => ({ dispose() {} }),
          onDidChangeViewState: () => ({ dispose() {} }),
          webview: {
            cspSource: 'https://webview.test',
            asWebviewUri: (u: unknown) => u,
            onDidReceiveMessage: messages.event,
            postMessage: async (m: unknown) => fake.posted.push(m),
            set html(h: string) {
              fake.htmls.push(h);
            },
          },
        };
      },
    },
  };
});

const { ShownPanel } = await import('../../src/extension/webviewPanel');
const { webviewHtml } = await import('../../src/extension/webviewHtml');
const { FIRST_MESSAGES_ATTR, isFirstMessages } = await import('../../src/shared/firstMessages');

type Out = { type: 'show'; text: string };
type In = { type: 'ready' };

class TestPanel extends ShownPanel<{ id: string }, Out, In> {
  firstSeen: (readonly Out[] | undefined)[] = [];
  failRefresh = false;
  constructor() {
    super({ path: '/ext' } as never, {
      accepts: (m): m is In => (m as In)?.type === 'ready',
      logName: 'test view',
      copy: (r) => ({ ...r }),
    });
  }
  open(id: string): void {
    this.showRef({ id });
  }
  protected hostOptions() {
    return {
      viewType: 'test.view',
      title: 'test',
      html: (webview: never, first?: readonly Out[]) => {
        this.firstSeen.push(first);
        return webviewHtml(webview, { path: '/ext' } as never, 'nonce', {
          title: 't',
          bundle: 'b',
          rootId: 'root',
          placeholder: '…',
          first,
        });
      },
    };
  }
  protected refresh(): void {
    if (this.failRefresh) throw new Error('no step');
    this.post({ type: 'show', text: `step ${this.current?.id}` });
  }
  protected handle(msg: In): void {
    if (msg.type === 'ready') this.refresh();
  }
}

/** The attribute's value as an HTML parser gives it to the page: entities decoded. */
function firstAttr(html: string): unknown {
  const m = new RegExp(`<body ${FIRST_MESSAGES_ATTR}="([^"]*)">`).exec(html);
  if (!m) return undefined;
  const decoded = m[1]
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');
  return JSON.parse(decoded);
}

describe("a new panel's first messages", () => {
  it('go into its HTML, once, and later posts wait for the page to say ready', () => {
    const view = new TestPanel();
    view.open('a');
    const fake = panels.at(-1)!;
    expect(view.firstSeen).toEqual([[{ type: 'show', text: 'step a' }]]);
    expect(fake.htmls).toHaveLength(1);
    const first = firstAttr(fake.htmls[0]);
    expect(isFirstMessages(first) && first.messages).toEqual([{ type: 'show', text: 'step a' }]);
    expect(fake.posted).toEqual([]);
    // Shown again before the page is ready: dropped (its `ready` makes the panel send the current step).
    view.open('b');
    expect(fake.posted).toEqual([]);
    expect(fake.htmls).toHaveLength(1);
    fake.receive({ type: 'ready' });
    expect(fake.posted).toEqual([{ type: 'show', text: 'step b' }]);
  });

  it('still load the page when the first refresh throws', () => {
    const view = new TestPanel();
    view.failRefresh = true;
    expect(() => view.open('a')).toThrow('no step');
    const fake = panels.at(-1)!;
    expect(fake.htmls).toHaveLength(1);
    expect(firstAttr(fake.htmls[0])).toBeUndefined();
    expect(view.firstSeen).toEqual([[]]);
  });

  it('keep dataset text whole and inert inside the attribute', () => {
    const text = `"><script>alert(1)</script> &quot; &amp; </body> ' \u2028 — 简介`;
    const html = webviewHtml(
      { cspSource: 's', asWebviewUri: (u: unknown) => u } as never,
      { path: '/e' } as never,
      'n',
      {
        title: 't',
        bundle: 'b',
        rootId: 'root',
        placeholder: '…',
        first: [{ type: 'show', text }],
      },
    );
    const body = html.slice(html.indexOf('<body'), html.indexOf('<main'));
    // One attribute, no markup of the text's: its quotes and angle brackets are escaped.
    expect(body.match(/"/g)).toHaveLength(2);
    expect(body.slice(1).includes('<')).toBe(false);
    expect(html.match(/<script/g)).toHaveLength(1);
    const first = firstAttr(html);
    expect(isFirstMessages(first) && first.messages).toEqual([{ type: 'show', text }]);
  });
});
