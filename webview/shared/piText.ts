// PI marks in text: placeholders highlighted by category, residual findings (real PI the placeholders missed) with
// a warning underline and icon. The text goes in as text nodes only; the marks come from the extension host
// (src/core/pi/highlight.ts). Styles: piMarks.css.
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
