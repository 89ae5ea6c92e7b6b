// The dashboard and compare pages and their panels: both rendered by dist/webview/dashboard.js, which reads data-page.
import * as vscode from 'vscode';
import { COMPARE_VIEW_TYPE, DASHBOARD_VIEW_TYPE } from '../../../../shared/spb/dashboardProtocol';
import { newNonce, webviewHtml } from '../../../webviewHtml';
import type { PanelHostOptions } from '../../../webviewPanel';

export type Page = 'dashboard' | 'compare';

export function dashboardHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string, page: Page): string {
  return webviewHtml(webview, extensionUri, nonce, {
    title: page === 'dashboard' ? 'Persona Lab dashboard' : 'Persona Lab compare',
    bundle: 'dashboard',
    rootId: 'dash-root',
    rootAttrs: { 'data-page': page },
    placeholder: 'Loading…',
  });
}

const PANELS: Record<Page, { viewType: string; title: string }> = {
  dashboard: { viewType: DASHBOARD_VIEW_TYPE, title: 'Persona Lab: Run Dashboard' },
  compare: { viewType: COMPARE_VIEW_TYPE, title: 'Persona Lab: Compare' },
};

/** The panel of a page, in the active column. */
export function dashboardPanelOptions(
  extensionUri: vscode.Uri,
  page: Page,
): Omit<PanelHostOptions, 'onMessage' | 'onDispose'> {
  return {
    ...PANELS[page],
    viewColumn: vscode.ViewColumn.Active,
    extensionUri,
    html: (webview) => dashboardHtml(webview, extensionUri, newNonce(), page),
  };
}
