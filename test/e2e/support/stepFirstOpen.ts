// Where the first open of the step view spends its time, for stepRender.test.ts (reported, never asserted against a
// bound). Each milestone is a wall-clock time (ms since the epoch) so that the workbench page, the webview's two
// documents and the extension host's log can be put on one line: a document's performance entries are turned into
// wall-clock times through its performance.timeOrigin, the extension host's through its log's timestamps.
//
//   workbench page: the click's pointerdown; the webview's <iframe> element added to the DOM
//   outer frame (VS Code's webview host page, which starts the webview service worker, then makes the content frame)
//   content frame (our HTML): its navigation, the codicon sheet, step.js and the codicon font as fetched through the
//     service worker, and the marks webview/spb/step/main.ts sets (bundle start, ready posted, first show, its paint)
//   extension host: "step view: page ready N ms after the panel was made; step sent in M ms"
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';
import type { ViewPane } from './sideBar';
import { waitFor } from './wait';

type ArmedWindow = Window & { __plFirst?: { click?: number; iframe?: number } };

/** Before the first click: records the pointerdown and the first webview <iframe> added to the workbench. */
export function armFirstOpen(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as ArmedWindow;
    const got: { click?: number; iframe?: number } = {};
    w.__plFirst = got;
    w.addEventListener('pointerdown', () => (got.click = Date.now()), { capture: true, once: true });
    const mo = new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.addedNodes) {
          const isFrame = (e: Node) => e instanceof HTMLIFrameElement && e.classList.contains('webview');
          if (isFrame(n) || (n instanceof Element && [...n.querySelectorAll('iframe')].some(isFrame))) {
            got.iframe = Date.now();
            mo.disconnect();
            return;
          }
        }
    });
    mo.observe(document.body, { childList: true, subtree: true });
  });
}

interface DocTimes {
  origin: number;
  nav?: { responseEnd: number; domContentLoadedEventEnd: number; loadEventEnd: number };
  resources: { name: string; startTime: number; responseEnd: number }[];
  marks: { name: string; startTime: number }[];
}

const docTimes = (frame: Frame) =>
  frame.evaluate((): DocTimes => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return {
      origin: performance.timeOrigin,
      nav: nav && {
        responseEnd: nav.responseEnd,
        domContentLoadedEventEnd: nav.domContentLoadedEventEnd,
        loadEventEnd: nav.loadEventEnd,
      },
      resources: performance.getEntriesByType('resource').map((e) => ({
        name: e.name,
        startTime: e.startTime,
        responseEnd: (e as PerformanceResourceTiming).responseEnd,
      })),
      marks: [...performance.getEntriesByType('mark'), ...performance.getEntriesByType('paint')].map((e) => ({
        name: e.name,
        startTime: e.startTime,
      })),
    };
  });

/** A log entry's time: "YYYY-MM-DD hh:mm:ss.mmm [level] …", written in the machine's local time. */
export function logTime(line: string): number {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})/.exec(line);
  return m ? new Date(`${m[1]}T${m[2]}`).getTime() : NaN;
}

/** The milestone readFirstOpen adds: the step's first paint, from the click (what the goal of 300 ms measures). */
export const STEP_PAINTED = 'the step painted';

/**
 * The step's first paint: the frame after its render (the page's mark), or the page's first contentful paint when that
 * came later: a page that renders its step as it starts (from its HTML) paints nothing before it.
 */
export function stepPaintedMs(milestones: readonly { what: string; ms: number }[]): number | undefined {
  const mark = (name: string) => milestones.find((m) => m.what === `content frame: ${name}`)?.ms;
  const shown = mark('persona-lab:first-show');
  const painted = mark('persona-lab:first-show-painted');
  const contentful = mark('first-contentful-paint');
  if (shown === undefined || painted === undefined) return undefined;
  return contentful !== undefined && contentful > shown ? Math.max(painted, contentful) : painted;
}

export interface FirstOpen {
  /** Milestones in ms after the click's pointerdown, in the order they happened. */
  milestones: { what: string; ms: number }[];
  /** The page's `ready` seen by the extension host, after the panel was made (its own clock). */
  readyAfterPanelMs?: number;
  /** The extension host building and posting the first step. */
  stepSentMs?: number;
  /** How many times the content frame fetched the codicon font (1 when its preload is used by the stylesheet). */
  fontFetches: number;
  /** The origin of VS Code's webview host page (the service worker's scope is per origin). */
  webviewOrigin?: string;
}

/**
 * After a new panel's open: waits for its paint mark and reads every clock. `nth`: which of the extension's "page
 * ready … after the panel was made" entries is this panel's (0 for the first panel made).
 */
export async function readFirstOpen(
  page: Page,
  content: Frame,
  logLines: () => string[],
  nth: number,
): Promise<FirstOpen> {
  await content.waitForFunction(() => performance.getEntriesByName('persona-lab:first-show-painted').length > 0);
  const armed = await page.evaluate(() => (window as ArmedWindow).__plFirst ?? {});
  const click = armed.click ?? NaN;
  const inner = await docTimes(content);
  const outerFrame = content.parentFrame();
  const outer = outerFrame && outerFrame !== page.mainFrame() ? await docTimes(outerFrame) : undefined;
  const out: { what: string; ms: number }[] = [];
  const at = (what: string, epoch: number | undefined) => {
    if (epoch !== undefined && Number.isFinite(epoch)) out.push({ what, ms: Math.round(epoch - click) });
  };
  at('webview <iframe> added to the workbench', armed.iframe);
  if (outer) {
    at('webview host page: navigation start', outer.origin);
    at('webview host page: response end', outer.origin + (outer.nav?.responseEnd ?? NaN));
    at('webview host page: DOMContentLoaded', outer.origin + (outer.nav?.domContentLoadedEventEnd ?? NaN));
    for (const m of outer.marks)
      at(`webview host page: ${m.name.replace('webview/index.html/', '')}`, outer.origin + m.startTime);
    for (const r of outer.resources)
      at(`webview host page: ${r.name.split('?')[0].split('/').pop()} received`, outer.origin + r.responseEnd);
  }
  at('content frame: navigation start', inner.origin);
  const res = (pattern: RegExp, what: string) => {
    const e = inner.resources.find((r) => pattern.test(r.name));
    if (!e) return;
    at(`${what} requested`, inner.origin + e.startTime);
    at(`${what} received`, inner.origin + e.responseEnd);
  };
  res(/codicon\.css/, 'codicon.css');
  res(/webview\/step\.js/, 'step.js');
  res(/codicon\.ttf/, 'codicon.ttf');
  for (const m of inner.marks) at(`content frame: ${m.name}`, inner.origin + m.startTime);
  const readyLine = logLines().filter((l) => /step view: page ready \d+ ms after the panel was made/.test(l))[nth];
  let readyAfterPanelMs: number | undefined;
  let stepSentMs: number | undefined;
  if (readyLine) {
    const m = /page ready (\d+) ms after the panel was made; step sent in (\d+) ms/.exec(readyLine)!;
    readyAfterPanelMs = Number(m[1]);
    stepSentMs = Number(m[2]);
    // The entry is written once the step has been sent.
    const sent = logTime(readyLine);
    at('extension host: step sent (log entry, ms precision)', sent);
    at('extension host: ready received', sent - stepSentMs);
    at('extension host: panel made', sent - stepSentMs - readyAfterPanelMs);
  }
  const painted = stepPaintedMs(out);
  if (painted !== undefined) out.push({ what: STEP_PAINTED, ms: painted });
  out.sort((a, b) => a.ms - b.ms);
  const webviewOrigin = outerFrame ? new URL(outerFrame.url()).origin : undefined;
  const fontFetches = inner.resources.filter((r) => /codicon\.ttf/.test(r.name)).length;
  return { milestones: out, readyAfterPanelMs, stepSentMs, fontFetches, webviewOrigin };
}

type FiguresWindow = Window & { __plFigures?: number; __plFiguresRows?: [string, string, string][] };

/**
 * Records when the Benchmarks tree first shows a row's figures (a description with " · R <n>"), and the rows it
 * showed then (name, description and codicon, as TreeRow reads them); call it before the benchmark loads.
 * `figuresShownAt` reads the time (ms since the epoch), or undefined before they show; `firstFiguresRows` the rows.
 */
export function armFigures(page: Page, paneTitle: string): Promise<void> {
  return page.evaluate((title) => {
    const w = window as FiguresWindow;
    const check = () => {
      const pane = [...document.querySelectorAll('.part.sidebar .pane')].find(
        (p) => p.querySelector('.pane-header h3.title')?.textContent === title,
      );
      const rows = [...(pane?.querySelectorAll('.monaco-list-row') ?? [])].map((r): [string, string, string] => [
        r.querySelector('.label-name')?.textContent ?? '',
        r.querySelector('.label-description')?.textContent ?? '',
        [...(r.querySelector('.custom-view-tree-node-item-icon')?.classList ?? [])]
          .find((c) => c.startsWith('codicon-'))
          ?.slice('codicon-'.length) ?? '',
      ]);
      if (rows.some(([, d]) => / · R \d/.test(d)) && w.__plFigures === undefined) {
        w.__plFigures = Date.now();
        w.__plFiguresRows = rows;
        mo.disconnect();
      }
    };
    const mo = new MutationObserver(check);
    mo.observe(document.body, { childList: true, subtree: true, characterData: true });
    check();
  }, paneTitle);
}

export const firstFiguresRows = (page: Page) => page.evaluate(() => (window as FiguresWindow).__plFiguresRows);

/** A state of a view's progress bar: its container's classes (`infinite`, `discrete`, `done`) and its bar's width. */
export interface ViewProgress {
  classes: string[];
  width: string;
}

type ProgressWindow = Window & { __plProgress?: ViewProgress[] };

/** Records every state the progress bar of the side bar's pane `paneTitle` takes from now on (`viewProgress` reads them). */
export function recordViewProgress(page: Page, paneTitle: string): Promise<void> {
  return page.evaluate((title) => {
    const w = window as ProgressWindow;
    const states: ViewProgress[] = (w.__plProgress = []);
    const pane = [...document.querySelectorAll('.part.sidebar .pane')].find(
      (p) => p.querySelector('.pane-header h3.title')?.textContent === title,
    );
    const bar = pane?.querySelector<HTMLElement>('.monaco-progress-container');
    if (!bar) return;
    const note = () => {
      const state = {
        classes: [...bar.classList],
        width: bar.querySelector<HTMLElement>('.progress-bit')?.style.width ?? '',
      };
      const last = states.at(-1);
      if (!last || last.width !== state.width || last.classes.join() !== state.classes.join()) states.push(state);
    };
    new MutationObserver(note).observe(bar, { attributes: true, subtree: true });
    note();
  }, paneTitle);
}

export const viewProgress = (page: Page) => page.evaluate(() => (window as ProgressWindow).__plProgress ?? []);

/** The Benchmarks tree's rows (name → description) once none says `early` (the early figures' mark) any more. */
export function rowsOnceLoaded(tree: ViewPane, early: string, timeout: number): Promise<Map<string, string>> {
  return waitFor(
    async () => {
      const rows = await tree.readRows();
      return rows.some((r) => r.description.includes(early))
        ? undefined
        : new Map(rows.map((r) => [r.label, r.description]));
    },
    { timeout, message: 'the tree over the loaded benchmark' },
  );
}

export const figuresShownAt = (page: Page) => page.evaluate(() => (window as FiguresWindow).__plFigures);

/**
 * This workbench's extension host (the process with --type=extensionHost whose environment names the run's temp
 * folder), from /proc: its resident memory now and its peak (bytes), and the CPU time it has used (ms, user +
 * system, every thread). Undefined where /proc is not there.
 */
export function extensionHostUsage(runDir: string): { rss: number; peak: number; cpuMs: number } | undefined {
  if (!existsSync('/proc')) return undefined;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('extensionHost')) continue;
      if (!readFileSync(`/proc/${pid}/environ`, 'utf8').includes(runDir)) continue;
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
      // Fields 14 and 15 of stat (utime, stime) in clock ticks of 10 ms, after the name in parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cpuMs = (Number(fields[11]) + Number(fields[12])) * 10;
      return { rss: kb('VmRSS'), peak: kb('VmHWM'), cpuMs };
    } catch {
      // the process ended, or is not ours to read
    }
  }
  return undefined;
}
