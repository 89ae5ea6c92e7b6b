// The step view's legend of the PI categories on the step (the marks in text: ../shared/piText.ts), and the PI Audit
// finding it was opened for, outlined where it is.
import { CATEGORY_INFO, isPiCategory, placeholderOf } from '../../../src/core/pi/placeholders';
import type { PiArea, PiHighlight, StepPiMarks } from '../../../src/core/pi/spans';
import { el, icon, type Child } from '../../shared/dom';
import { findingMark, targetMark } from '../../shared/piText';

/** Where each area's text is on the page (render.ts); the step's own texts after it, never the re-run's. */
const AREA_SELECTORS: Partial<Record<PiArea, string>> = {
  bio: '.meta-row .bio',
  posts: '[data-section="batch"]',
  persona: '.persona-box.written, .persona-diff',
  reasoning: '[data-section="reasoning"]',
  tag: '[data-section="pool"]',
};
const STEP_TEXTS =
  '[data-section="batch"], [data-section="pool"], [data-section="persona"], [data-section="reasoning"], .meta-row';

/**
 * Outlines the mark of the PI Audit finding `h` on the step shown and, when `reveal`, scrolls to it (a bio cut to
 * one line shows whole). Returns the mark, or null when the step no longer holds the text.
 */
export function highlightFinding(root: HTMLElement, h: PiHighlight, reveal: boolean): HTMLElement | null {
  const area = AREA_SELECTORS[h.area];
  const scopes = [...(area ? root.querySelectorAll(area) : []), ...root.querySelectorAll(STEP_TEXTS)];
  const mark = findingMark(scopes, h.text, h.category);
  if (!mark) return null;
  mark.closest('.bio')?.classList.add('pi-target-open');
  targetMark(root, mark, h.key, reveal);
  return mark;
}

/** The categories present on the step, with counts; null when there is nothing to show. */
export function renderPiLegend(pi: StepPiMarks): HTMLElement | null {
  const rows = pi.legend.filter((r) => isPiCategory(r.category));
  if (rows.length === 0) return null;
  const items: Child[] = rows.flatMap((r) => {
    const info = CATEGORY_INFO[r.category];
    const out: Child[] = [];
    if (r.placeholders > 0) {
      out.push(
        el(
          'li',
          {
            className: `pi-legend-item pi-cat-${r.category}`,
            title: `${r.placeholders} placeholder${r.placeholders === 1 ? '' : 's'} ${placeholderOf(r.category)}: ${info.description}`,
            attrs: { 'data-legend': 'placeholder', 'data-category': r.category, 'data-count': String(r.placeholders) },
          },
          [
            el('mark', {
              className: `pi pi-placeholder pi-cat-${r.category}`,
              text: placeholderOf(r.category),
              attrs: { 'aria-hidden': 'true' },
            }),
            el('span', { className: 'pi-legend-label', text: ` ${info.label} ×${r.placeholders}` }),
          ],
        ),
      );
    }
    if (r.findings > 0) {
      out.push(
        el(
          'li',
          {
            className: `pi-legend-item pi-legend-finding pi-cat-${r.category}`,
            title: `${r.findings} residual ${r.category} finding${r.findings === 1 ? '' : 's'}: real PI that was not replaced by ${placeholderOf(r.category)}`,
            attrs: { 'data-legend': 'finding', 'data-category': r.category, 'data-count': String(r.findings) },
          },
          [
            el('mark', { className: `pi pi-finding pi-cat-${r.category}`, attrs: { 'aria-hidden': 'true' } }, [
              icon('shield', 'pi-finding-icon'),
              r.category,
            ]),
            el('span', { className: 'pi-legend-label', text: ` residual ${info.label} ×${r.findings}` }),
          ],
        ),
      );
    }
    return out;
  });
  const summary = [
    pi.placeholders ? `${pi.placeholders} placeholder${pi.placeholders === 1 ? '' : 's'}` : '',
    pi.findings ? `${pi.findings} residual finding${pi.findings === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return el(
    'section',
    {
      className: `pi-legend${pi.findings ? ' has-findings' : ''}`,
      attrs: { 'aria-label': `Personal information on this step: ${summary}` },
    },
    [
      el(
        'span',
        {
          className: 'pi-legend-title',
          title:
            'Placeholders the benchmark put in place of personal information, and residual PI the scanner finds in the texts of this step',
        },
        [icon(pi.findings ? 'warning' : 'shield', 'pi-legend-icon'), ` PI: ${summary}`],
      ),
      el('ul', { className: 'pi-legend-items' }, items),
    ],
  );
}
