// The trace view's PI section: scans on request (the extension host does the scanning, in batches) and lists the
// residual personal information found, each row opening its record below the timeline.
import type { PiFinding, PiMessage } from '../../src/shared/traceProtocol';
import { el } from '../shared/dom';

export class PiUi {
  readonly element: HTMLElement;
  private readonly status: HTMLElement;
  private readonly body: HTMLElement;
  private readonly button: HTMLElementTagNameMap['vscode-button'];

  constructor(
    scan: () => void,
    private readonly openRecord: (index: number) => void,
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
        ? el('table', { className: 'pi-table' }, [
            el('thead', {}, [
              el(
                'tr',
                {},
                ['where', 'category', 'confidence', 'value', 'why'].map((h) =>
                  el('th', { text: h, attrs: { scope: 'col' } }),
                ),
              ),
            ]),
            el(
              'tbody',
              {},
              msg.findings.map((f) => this.row(f)),
            ),
          ])
        : el('p', { className: 'empty', text: msg.done ? 'No residual personal information found.' : '' }),
    );
  }

  private row(f: PiFinding): HTMLElement {
    const where = f.index === null ? f.field : `#${f.index} ${f.field}`;
    const tr = el(
      'tr',
      { attrs: { 'data-index': f.index === null ? '' : String(f.index), 'data-category': f.category } },
      [
        el('td', { text: where }),
        el('td', { text: f.category }),
        el('td', { text: f.confidence }),
        el('td', { className: 'pi-value', text: f.value }),
        el('td', { className: 'note', text: f.reason }),
      ],
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
