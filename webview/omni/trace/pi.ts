// The trace view's PI section. After a PI audit of the benchmark it lists the audit's findings in this trace (the
// profile, the records up to the test action's own, its prediction) and marks each where it is: in the profile, the
// scene context, the questions, or a record's text once the record shows; the finding the audit opened the trace for
// is outlined and scrolled to. Without an audit it scans on request (the extension host scans, in batches).
import type { AuditPiFinding, AuditPiMessage, PiFinding, PiMessage } from '../../../src/shared/omni/traceProtocol';
import { el } from '../../shared/dom';
import { markAuditFinding, piFindingsTable } from '../../shared/piText';

/** Where each area's text is on the page (render.ts, timeline.ts). */
const AREA_SELECTORS: Record<string, string> = {
  profile: '.profile',
  action: '[data-section="context"]',
  prediction: '[data-section="questions"]',
};

export class PiUi {
  readonly element: HTMLElement;
  private readonly status: HTMLElement;
  private readonly body: HTMLElement;
  private readonly button: HTMLElementTagNameMap['vscode-button'];
  private audit: { findings: AuditPiFinding[]; target: string | null; revealed: boolean } | undefined;

  constructor(
    scan: () => void,
    private readonly openRecord: (index: number) => void,
    private readonly root: HTMLElement,
  ) {
    this.button = el('vscode-button', {
      text: 'Scan for Personal Information',
      title: 'Scan the profile, context texts, OCR / ASR, search keywords and dialogue turns up to this test action',
    });
    this.button.icon = 'shield';
    this.button.secondary = true;
    this.button.addEventListener('click', () => {
      this.button.disabled = true;
      this.element.dataset.state = 'scanning';
      this.status.textContent = 'Scanning…';
      scan();
    });
    this.status = el('span', { className: 'pi-status note', attrs: { 'aria-live': 'polite' } });
    this.body = el('div', { className: 'pi-findings' });
    this.element = el('div', { className: 'pi' }, [
      el('div', { className: 'pi-bar' }, [this.button, this.status]),
      this.body,
    ]);
  }

  update(msg: PiMessage): void {
    const more = msg.found > msg.findings.length ? ` (the first ${msg.findings.length} listed)` : '';
    this.status.textContent = msg.done
      ? `Scanned the profile and ${msg.total.toLocaleString('en-US')} record${msg.total === 1 ? '' : 's'}: ${msg.found} finding${msg.found === 1 ? '' : 's'}${more}`
      : `Scanned ${msg.scanned.toLocaleString('en-US')} of ${msg.total.toLocaleString('en-US')} records: ${msg.found} finding(s) so far…`;
    if (msg.done) {
      this.element.dataset.state = 'done';
      this.element.dataset.found = String(msg.found);
      this.button.disabled = false;
    }
    this.body.replaceChildren(
      msg.findings.length
        ? this.table(msg.findings.map((f) => this.row(f)))
        : el('p', { className: 'empty', text: msg.done ? 'No residual personal information found.' : '' }),
    );
  }

  /** The PI Audit's findings in this trace: listed here and marked where they are. */
  showAudit(msg: AuditPiMessage): void {
    if (!msg.audited) {
      this.audit = undefined;
      return;
    }
    const target = msg.target ?? this.audit?.target ?? null;
    this.audit = { findings: msg.findings, target, revealed: msg.target === null };
    const n = msg.found;
    const more = n > msg.findings.length ? ` (the first ${msg.findings.length} listed)` : '';
    this.element.dataset.state = 'audited';
    this.element.dataset.found = String(n);
    this.status.textContent = n
      ? n === 1
        ? 'The PI audit found 1 residual finding in this trace, marked where it is: click it to show it.'
        : `The PI audit found ${n} residual findings in this trace${more}, marked where they are: click one to show it.`
      : 'The PI audit found no residual personal information in this trace.';
    this.button.textContent = 'Scan Again';
    this.button.title = 'The findings below are the PI audit’s. Scan this trace again with the scanner alone.';
    this.body.replaceChildren(n ? this.table(msg.findings.map((f) => this.auditRow(f))) : '');
    for (const f of msg.findings) {
      const area = AREA_SELECTORS[f.area];
      const scope = area ? this.root.querySelector(area) : null;
      if (scope) this.mark(f, [scope]);
    }
    const detail = this.root.querySelector<HTMLElement>('.record-detail:not([hidden])');
    if (detail?.dataset.index) this.markRecord(Number(detail.dataset.index));
  }

  /** Marks the audit's findings in record `index`, whose text the page shows now (below the timeline). */
  markRecord(index: number): void {
    const detail = this.root.querySelector<HTMLElement>('.record-detail');
    if (!this.audit || !detail || detail.dataset.index !== String(index)) return;
    for (const f of this.audit.findings)
      if (f.index === index && (f.area === 'record' || f.area === 'action')) this.mark(f, [detail]);
  }

  /** Marks one finding in `scopes`; outlines it (scrolling to it the first time) when it is the target. */
  private mark(f: AuditPiFinding, scopes: Element[]): void {
    markAuditFinding(this.root, scopes, f, this.audit);
  }

  /** A click on an audit finding's row: its record opens (the mark outlined there), or its mark is outlined. */
  private showFinding(f: AuditPiFinding): void {
    if (!this.audit) return;
    this.audit.target = f.key;
    this.audit.revealed = false;
    if (f.area === 'record' && f.index !== null) {
      this.openRecord(f.index);
      return;
    }
    const area = AREA_SELECTORS[f.area];
    const scope = area ? this.root.querySelector(area) : null;
    if (scope) this.mark(f, [scope]);
  }

  private table(rows: HTMLElement[]): HTMLElement {
    return piFindingsTable(rows);
  }

  private cells(f: PiFinding): HTMLElement[] {
    const where = f.index === null ? f.field : `#${f.index} ${f.field}`;
    return [
      el('td', { text: where }),
      el('td', { text: f.category }),
      el('td', { text: f.confidence }),
      el('td', { className: 'pi-value', text: f.value }),
      el('td', { className: 'note', text: f.reason }),
    ];
  }

  private auditRow(f: AuditPiFinding): HTMLElement {
    const tr = el(
      'tr',
      {
        className: 'clickable',
        title: 'Show it where it is',
        attrs: {
          'data-index': f.index === null ? '' : String(f.index),
          'data-category': f.category,
          'data-key': f.key,
          'data-area': f.area,
        },
      },
      this.cells(f),
    );
    tr.addEventListener('click', () => this.showFinding(f));
    return tr;
  }

  private row(f: PiFinding): HTMLElement {
    const tr = el(
      'tr',
      { attrs: { 'data-index': f.index === null ? '' : String(f.index), 'data-category': f.category } },
      this.cells(f),
    );
    const index = f.index;
    if (index !== null) {
      tr.classList.add('clickable');
      tr.title = 'Show the record';
      tr.addEventListener('click', () => this.openRecord(index));
    }
    return tr;
  }
}
