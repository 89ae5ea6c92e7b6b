// The question view's PI section: after a PI audit, the audit's findings in what the question shows (history
// messages up to its end index, the question, its options, the run's response), listed in a table and marked where
// they are: a history row carries a shield, and a message's text, the question, the options and the response have
// the value marked once shown. The finding the PI Audit opened the question for is revealed and outlined.
import type { PmAuditPiMessage, PmPiFinding } from '../../../src/shared/personamem/questionProtocol';
import { el } from '../../shared/dom';
import { markAuditFinding, piFindingsTable } from '../../shared/piText';
import type { HistoryUi } from './history';

/** Where each part's text is on the page (main.ts). */
const PART_SELECTORS: Record<Exclude<PmPiFinding['part'], 'history'>, string> = {
  question: '.question-text',
  options: '.options, .options-raw',
  response: '.response',
};

const where = (f: PmPiFinding): string =>
  f.part === 'history' ? `message #${f.index ?? '?'}` : f.part === 'response' ? `response (${f.run ?? ''})` : f.part;

export class PmPiUi {
  readonly element: HTMLElement;
  private readonly status: HTMLElement;
  private readonly body: HTMLElement;
  private findings: PmPiFinding[] = [];
  private target: { target: string; revealed: boolean } | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly history: HistoryUi | undefined,
  ) {
    this.status = el('p', {
      className: 'pi-status note',
      text: 'Not audited: Run PI Audit (in the PI Audit view) lists the personal information found here.',
      attrs: { 'aria-live': 'polite' },
    });
    this.body = el('div', { className: 'pi-findings' });
    this.element = el('div', { className: 'pi', attrs: { 'data-state': 'not-audited' } }, [this.status, this.body]);
  }

  show(msg: PmAuditPiMessage): void {
    this.findings = msg.audited ? msg.findings : [];
    if (msg.target !== null) this.target = { target: msg.target, revealed: false };
    this.element.dataset.state = msg.audited ? 'audited' : 'not-audited';
    this.element.dataset.found = String(msg.found);
    const more = msg.found > msg.findings.length ? ` (the first ${msg.findings.length} listed)` : '';
    if (msg.audited)
      this.status.textContent = msg.found
        ? `The PI audit found ${msg.found} residual finding${msg.found === 1 ? '' : 's'} in what this question shows${more}: click one to show it.`
        : 'The PI audit found no residual personal information in what this question shows.';
    this.body.replaceChildren(this.findings.length ? this.table() : '');
    this.history?.setFlagged(this.findings.flatMap((f) => (f.part === 'history' && f.index !== null ? [f.index] : [])));
    for (const f of this.findings) if (f.part !== 'history') this.markIn(f);
    const target = this.findings.find((f) => f.key === this.target?.target);
    if (target) this.reveal(target);
  }

  /** Marks the findings of history message `index`, whose text the page shows now (below the list). */
  markMessage(index: number): void {
    for (const f of this.findings) if (f.part === 'history' && f.index === index) this.markIn(f);
  }

  private scopeOf(f: PmPiFinding): Element | null {
    if (f.part === 'history') {
      const detail = this.root.querySelector<HTMLElement>('.message-detail:not([hidden])');
      return detail?.dataset.index === String(f.index) ? detail : null;
    }
    return this.root.querySelector(PART_SELECTORS[f.part]);
  }

  /** Marks one finding where its text is shown; outlines it (scrolling to it the first time) when it is the target. */
  private markIn(f: PmPiFinding): void {
    const scope = this.scopeOf(f);
    if (scope) markAuditFinding(this.root, [scope], f, this.target);
  }

  /** Shows a finding: its history message scrolled to and opened (marked once its text arrives), or its mark. */
  private reveal(f: PmPiFinding): void {
    this.target = { target: f.key, revealed: false };
    if (f.part === 'history' && f.index !== null) this.history?.reveal(f.index);
    else this.markIn(f);
  }

  private table(): HTMLElement {
    const rows = this.findings.map((f) => {
      const tr = el(
        'tr',
        {
          className: 'clickable',
          title: 'Show it where it is',
          attrs: { 'data-key': f.key, 'data-part': f.part, 'data-category': f.category },
        },
        [where(f), f.category, f.confidence, f.value, f.reason].map((text, i) =>
          el('td', { className: i === 3 ? 'pi-value' : i === 4 ? 'note' : '', text }),
        ),
      );
      tr.addEventListener('click', () => this.reveal(f));
      return tr;
    });
    return piFindingsTable(rows);
  }
}
