// Step view webview: posts `ready`, renders each `show` it receives, and turns [ ] { } into navigation.
import './bundleStart';
import {
  EDIT_PROMPT_KEY,
  WEBVIEW_KEYS,
  isExtensionToWebview,
  type NavDirection,
  type NavState,
  type RerunState,
  type WebviewToExtension,
} from '../../../src/shared/spb/stepViewProtocol';
import { fieldKey, type StepPiMarks } from '../../../src/core/pi/spans';
import type { StepModel } from '../../../src/core/spb/view/stepModel';
import { el } from '../../shared/dom';
import { mergeState, onHostMessage, vscodeApi } from '../../shared/host';
import { isPlainKey } from '../../shared/keys';
import { injectStyle } from '../../shared/page';
import { openSections, section } from '../../shared/sections';
import { LabelsUi } from './labels';
import { highlightFinding } from './pi';
import { renderStep, type Handlers } from './render';
import { renderRerunBody, rerunDescription } from './rerun';
import baseCss from '../../shared/base.css';
import piMarksCss from '../../shared/piMarks.css';
import sidesCss from '../shared/sides.css';
import piCss from './pi.css';
import rerunCss from './rerun.css';
import css from './step.css';

const vscode = vscodeApi<WebviewToExtension>();
const root = document.getElementById('step-root') ?? document.body;

injectStyle(`${baseCss}\n${sidesCss}\n${css}\n${rerunCss}\n${piMarksCss}\n${piCss}`);
const sections = openSections(vscode);
const labels = new LabelsUi(root, (action) => vscode.postMessage({ type: 'label', action }));

let shown: { model: StepModel; nav: NavState; pinnedRun: string | null } | undefined;
let shownKey = '';
let rerun: RerunState | undefined;

const handlers: Handlers = {
  navigate(direction) {
    if (shown?.nav[direction]) vscode.postMessage({ type: 'navigate', direction });
  },
  goToStep(stepId) {
    vscode.postMessage({ type: 'goToStep', stepId });
  },
  openSource(which) {
    vscode.postMessage({ type: 'openSource', which });
  },
  isOpen: sections.isOpen,
  setOpen: sections.setOpen,
  command(command) {
    vscode.postMessage({ type: 'command', command });
  },
  selectAttempt(id) {
    vscode.postMessage({ type: 'selectAttempt', id });
  },
  openAttempt(id, which) {
    vscode.postMessage({ type: 'openAttempt', id, which });
  },
  retryAttempt(id) {
    vscode.postMessage({ type: 'retryAttempt', id });
  },
  cancelRerun() {
    vscode.postMessage({ type: 'cancelRerun' });
  },
};

const keyOf = (ref: { platform: string; userId: string; stepId: number }) =>
  `${ref.platform}/${ref.userId}/${ref.stepId}`;

/** Renders the re-run state into the slot of the step shown (a state for another step waits for its `show`). */
function showRerun(): void {
  const slot = root.querySelector('.rerun-slot');
  if (!slot || !shown || !rerun || keyOf(rerun.ref) !== shownKey) return;
  const busy = rerun.running !== null;
  // Collapsed until there is something to show; a re-run that starts opens it.
  if (busy) handlers.setOpen('rerun', true);
  slot.replaceChildren(
    section(
      'rerun',
      'Re-run',
      rerunDescription(rerun),
      renderRerunBody(rerun, shown.model, handlers),
      handlers,
      rerun.selected !== null,
    ),
  );
  slot.setAttribute('data-state', busy ? 'running' : rerun.selected ? 'compared' : 'idle');
  for (const b of root.querySelectorAll('.nav-row vscode-button[data-command]'))
    (b as HTMLElement & { disabled: boolean }).disabled = busy;
}

function show(model: StepModel, nav: NavState, pi: StepPiMarks, pinnedRun: string | null): void {
  shown = { model, nav, pinnedRun };
  const key = `${model.ref.platform}/${model.ref.userId}/${model.ref.stepId}`;
  root.replaceChildren(...renderStep(model, nav, handlers, pi, pinnedRun));
  root.dataset.step = key;
  // What the step view's serializer reopens after a reload of the window (src/extension/benchmarks/spb/stepView/restore.ts).
  mergeState(vscode, { restore: { ...model.ref, pinnedRun } });
  root.dataset.run = model.run ?? '';
  if (pinnedRun === null) delete root.dataset.pinned;
  else root.dataset.pinned = pinnedRun;
  trackHeader();
  labels.attach(pi.fields[fieldKey.personaWritten]);
  document.title = `${pinnedRun === null ? '' : `${pinnedRun} · `}${model.header.userId} · step ${model.header.stepId}`;
  // A new step starts at the top; a re-render of the same step (reload, run change) keeps the scroll position.
  if (key !== shownKey) window.scrollTo(0, 0);
  shownKey = key;
  showRerun();
}

// The header is sticky: keep anchors and scrollIntoView clear of it. Set as scroll-padding-top itself, on the root
// only: a custom property set on <html> is inherited, and changing it restyled every element of the page in the
// frame that first paints a step.
const headerSize = new ResizeObserver((entries) => {
  for (const e of entries)
    document.documentElement.style.scrollPaddingTop = `${Math.ceil(e.target.getBoundingClientRect().height) + 8}px`;
});
function trackHeader(): void {
  headerSize.disconnect();
  const header = root.querySelector('.step-header');
  if (header) headerSize.observe(header);
}

function showEmpty(message: string): void {
  shown = undefined;
  shownKey = '';
  delete root.dataset.step;
  delete root.dataset.run;
  root.replaceChildren(el('p', { className: 'placeholder', text: message }));
}

// The first `show` is written into the page's HTML and sent again after the page's `ready`, with the rest of what the
// step shows: the same step is not rendered twice.
let showInHtml: string | undefined;
onHostMessage(
  isExtensionToWebview,
  (msg, fromHtml) => {
    switch (msg.type) {
      case 'show': {
        if (fromHtml) showInHtml = JSON.stringify(msg);
        else if (showInHtml !== undefined) {
          const again = JSON.stringify(msg) === showInHtml;
          showInHtml = undefined;
          if (again && shown) break;
        }
        show(msg.model, msg.nav, msg.pi, msg.pinnedRun);
        markFirstShow(fromHtml);
        break;
      }
      case 'empty':
        showEmpty(msg.message);
        break;
      case 'labels':
        labels.update(msg.state);
        break;
      case 'rerun':
        rerun = msg.state;
        showRerun();
        break;
      case 'highlightPi':
        highlightFinding(root, msg.highlight, msg.reveal);
        break;
    }
  },
  vscode,
);

// In-webview keys: [ ] previous/next step, { } previous/next user (the workbench's Alt+[ / Alt+] keybindings get
// the Alt combinations).
window.addEventListener('keydown', (event: KeyboardEvent) => {
  if (!isPlainKey(event)) return;
  if (event.key === EDIT_PROMPT_KEY && shown && shown.pinnedRun === null) {
    event.preventDefault();
    handlers.command('editPrompt');
    return;
  }
  const direction: NavDirection | undefined = WEBVIEW_KEYS[event.key];
  if (!direction) return;
  event.preventDefault();
  handlers.navigate(direction);
});

/** Marks the first step rendered (and whether the HTML held it), and the first frame painted with it (bundleStart.ts). */
function markFirstShow(fromHtml: boolean): void {
  if (performance.getEntriesByName('persona-lab:first-show').length) return;
  performance.mark('persona-lab:first-show', { detail: { fromHtml } });
  requestAnimationFrame(() => setTimeout(() => performance.mark('persona-lab:first-show-painted')));
}

performance.mark('persona-lab:ready');
vscode.postMessage({ type: 'ready' });
