// PI marks in text: placeholders highlighted by category, residual findings (real PI the placeholders missed) with
// a warning underline and icon. The text goes in as text nodes only; the marks come from the extension host
// (each format's PI highlight, in its own core folder). Styles: piMarks.css.
import { CATEGORY_INFO, isPiCategory, placeholderOf } from '../../src/core/pi/placeholders';
import { segmentText, type PiMark } from '../../src/core/pi/spans';
import { el, icon } from './dom';

function markTitle(m: PiMark): string {
  const info = CATEGORY_INFO[m.category];
  return m.kind === 'placeholder'
    ? `Placeholder ${placeholderOf(m.category)}: ${info.label} (${info.description})`
    : `Residual PI, not redacted: ${m.category} (${info.label}), ${m.confidence ?? 'unknown'} confidence: ${m.reason}` +
        (m.chain ? `\nIn the personas: ${m.chain}` : '');
}

/** text[from, to) as text nodes, with a <mark> per placeholder or finding. */
export function piNodes(text: string, marks: readonly PiMark[] | undefined, from = 0, to = text.length): Node[] {
  return segmentText(text, marks, from, to).map((s) => {
    const m = s.mark;
    if (!m || !isPiCategory(m.category)) return document.createTextNode(s.text);
    const info = CATEGORY_INFO[m.category];
    if (m.kind === 'placeholder') {
      return el(
        'mark',
        {
          className: `pi pi-placeholder pi-cat-${m.category}`,
          title: markTitle(m),
          attrs: {
            'data-pi': 'placeholder',
            'data-category': m.category,
            'aria-label': `${s.text}: placeholder, ${info.label}`,
          },
        },
        [s.text],
      );
    }
    return el(
      'mark',
      {
        className: `pi pi-finding pi-cat-${m.category} pi-conf-${m.confidence ?? 'low'}`,
        title: markTitle(m),
        attrs: {
          'data-pi': 'finding',
          'data-category': m.category,
          'data-confidence': m.confidence ?? '',
          'aria-label': `residual PI, ${info.label}, ${m.confidence ?? 'unknown'} confidence: ${s.text}`,
        },
      },
      [s.first ? icon('shield', 'pi-finding-icon') : null, s.text],
    );
  });
}

/** An element whose text is `text` with its PI marks. */
export function piText<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text: string,
  marks: readonly PiMark[] | undefined,
  title?: string,
): HTMLElementTagNameMap[K] {
  return el(tag, { className, title }, piNodes(text, marks));
}

/** A finding's mark in `scope`: a PI mark holding exactly `text` (of `category` first), else null. */
function markWithText(scope: Element, text: string, category: string): HTMLElement | null {
  const marks = [...scope.querySelectorAll<HTMLElement>('mark.pi-finding')].filter((m) => m.textContent === text);
  return marks.find((m) => m.dataset.category === category) ?? marks[0] ?? null;
}

/**
 * Marks `text` where it first occurs inside one text node of `scope` (text the page shows without PI marks, such as
 * a record's JSON or the profile): the node is split and the text wrapped in a finding's mark. Text escaped in JSON
 * (quotes, newlines) is looked for as written there too.
 */
function wrapText(scope: Element, text: string, category: string): HTMLElement | null {
  if (!text) return null;
  const needles = [text, JSON.stringify(text).slice(1, -1)];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const node = n as Text;
    if (node.parentElement?.closest('mark.pi, mark.pi-finding')) continue;
    const value = node.data;
    for (const needle of needles) {
      const at = value.indexOf(needle);
      if (at < 0) continue;
      const hit = node.splitText(at);
      hit.splitText(needle.length);
      // No `pi` class: the trace page's PI section is `.pi`, and this mark sits in the same page.
      const mark = el('mark', {
        className: `pi-finding pi-cat-${category}`,
        attrs: { 'data-pi': 'finding', 'data-category': category },
      });
      hit.replaceWith(mark);
      mark.append(hit);
      return mark;
    }
  }
  return null;
}

/** The finding's mark in the first of `scopes` that holds it (an existing PI mark, else its text wrapped in one). */
export function findingMark(scopes: readonly Element[], text: string, category: string): HTMLElement | null {
  for (const s of scopes) {
    const m = markWithText(s, text, category);
    if (m) return m;
  }
  for (const s of scopes) {
    const m = wrapText(s, text, category);
    if (m) return m;
  }
  return null;
}

/** The table a page lists PI findings in: where, category, confidence, value, why; one row each. */
export function piFindingsTable(rows: HTMLElement[]): HTMLElement {
  return el('table', { className: 'pi-table' }, [
    el('thead', {}, [
      el(
        'tr',
        {},
        ['where', 'category', 'confidence', 'value', 'why'].map((h) => el('th', { text: h, attrs: { scope: 'col' } })),
      ),
    ]),
    el('tbody', {}, rows),
  ]);
}

/** A PI Audit finding as a page receives it. */
export interface AuditMarkFinding {
  key: string;
  value: string;
  category: string;
  confidence: string;
  reason: string;
}

/**
 * Marks a PI Audit finding in the first of `scopes` that holds it, saying what the audit found on hover; outlines it
 * when it is `audit`'s target (scrolling to it the first time: `revealed` is set then).
 */
export function markAuditFinding(
  root: Element,
  scopes: readonly Element[],
  f: AuditMarkFinding,
  audit: { target: string | null; revealed: boolean } | undefined,
): void {
  const mark = findingMark(scopes, f.value, f.category);
  if (!mark) return;
  mark.dataset.piKey = f.key;
  mark.title = `Residual PI found by the PI audit: ${f.category}, ${f.confidence} confidence: ${f.reason}`;
  if (!audit || f.key !== audit.target) return;
  targetMark(root, mark, f.key, !audit.revealed);
  audit.revealed = true;
}

/**
 * Outlines the mark of a PI Audit finding (`pi-target`, with a short flash) and, when `reveal`, opens the section
 * that holds it and scrolls it to the middle of the view. Any earlier target in `root` loses its outline.
 */
export function targetMark(root: Element, mark: HTMLElement, key: string, reveal: boolean): void {
  for (const m of root.querySelectorAll('mark.pi-target')) {
    m.classList.remove('pi-target');
    m.removeAttribute('data-pi-target');
  }
  mark.classList.add('pi-target');
  mark.dataset.piTarget = key;
  if (!mark.title.startsWith('PI Audit finding'))
    mark.title = mark.title ? `PI Audit finding\n${mark.title}` : 'PI Audit finding';
  if (!reveal) return;
  for (let c = mark.closest('vscode-collapsible'); c; c = c.parentElement?.closest('vscode-collapsible') ?? null)
    (c as HTMLElement & { open: boolean }).open = true;
  mark.scrollIntoView({ block: 'center', inline: 'nearest' });
}
