// Dashboard / compare webview: posts `ready`, then renders what the extension sends. One bundle for both pages;
// the HTML shell says which page this is (data-page on #dash-root).
import {
  ALL_SCOPES,
  isExtensionToWebview,
  isRef,
  type Ref,
  type Scope,
  type WebviewToExtension,
} from '../../../src/shared/spb/dashboardProtocol';
import { ComparePage } from './compare';
import { DashboardPage } from './dashboard';
import css from './dashboard.css';
import { el } from './dom';
import { onHostMessage, vscodeApi } from '../../shared/host';
import { injectStyle } from '../../shared/page';
import baseCss from '../../shared/base.css';
import paperTableCss from '../../shared/paperTable.css';
import piMarksCss from '../../shared/piMarks.css';
import sidesCss from '../shared/sides.css';
import vlistCss from '../../shared/vlist.css';

const vscode = vscodeApi<WebviewToExtension>();
const root = document.getElementById('dash-root') ?? document.body;
const page = root.dataset.page === 'compare' ? 'compare' : 'dashboard';

injectStyle(`${vlistCss}\n${baseCss}\n${paperTableCss}\n${sidesCss}\n${piMarksCss}\n${css}`);

function savedScope(): Scope {
  const s = vscode.getState();
  const scope = typeof s === 'object' && s !== null ? (s as Record<string, unknown>).scope : undefined;
  return (ALL_SCOPES as readonly unknown[]).includes(scope) ? (scope as Scope) : 'all';
}

const post = (m: WebviewToExtension) => vscode.postMessage(m);
const dashboard =
  page === 'dashboard' ? new DashboardPage(root, post, savedScope(), (scope) => vscode.setState({ scope })) : undefined;
function savedPair(): Ref | undefined {
  const s = vscode.getState();
  const pair = typeof s === 'object' && s !== null ? (s as Record<string, unknown>).pair : undefined;
  return isRef(pair) ? pair : undefined;
}
const compare =
  page === 'compare' ? new ComparePage(root, post, (pair) => vscode.setState(pair ? { pair } : {})) : undefined;
/** the pair shown before a Reload Window, shown again once the comparison is there */
let restorePair = page === 'compare' ? savedPair() : undefined;

onHostMessage(isExtensionToWebview, (msg) => {
  switch (msg.type) {
    case 'dashboard':
      dashboard?.show(msg.model);
      root.dataset.state = 'shown';
      break;
    case 'compare':
      compare?.show(msg.model);
      root.dataset.state = 'shown';
      if (restorePair) compare?.openPair(restorePair);
      restorePair = undefined;
      break;
    case 'pair':
      compare?.showPair(msg.pair, msg.pi);
      break;
    case 'pairMissing':
      compare?.pairMissing(msg.ref, msg.message);
      break;
    case 'steps':
      dashboard?.showSteps(msg.title, msg.note, msg.filter, msg.rows);
      break;
    case 'whyRunsFail':
      dashboard?.showWhyRunsFail(msg.section);
      break;
    case 'empty':
      root.replaceChildren(el('p', { className: 'placeholder', text: msg.message }));
      root.dataset.state = 'empty';
      break;
  }
});

// Charts draw with the theme's colours: redraw when the workbench theme changes (body class).
new MutationObserver(() => dashboard?.rethemed()).observe(document.body, {
  attributes: true,
  attributeFilter: ['class'],
});

post({ type: 'ready' });
