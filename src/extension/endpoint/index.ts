// The endpoint re-runs go to: personaLab.endpoint.* settings plus the API key, which lives only in VS Code's
// SecretStorage (Set API Key / Clear API Key). The key is handed to the request client and to nothing else.
import * as vscode from 'vscode';
import { publicBaseURL, type EndpointConfig } from '../../core/runner/client';
import { describeEndpoint, endpointProblems, readEndpointSettings, SECTION, type EndpointSettings } from './settings';

const SECRET_KEY = 'personaLab.endpoint.apiKey';

export interface ResolvedEndpoint {
  config: EndpointConfig;
  /** The user's system message; undefined when the setting is empty, so each format sends its own default. */
  systemMessage: string | undefined;
  maxConcurrency: number;
  /** base URL without credentials or query: what history rows and manifests record */
  publicURL: string;
  /** "model at host" */
  label: string;
}

export class EndpointService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when an endpoint setting or the key changes. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SECTION) && this.changed.fire()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
      secrets.onDidChange((e) => e.key === SECRET_KEY && this.changed.fire()),
    ];
  }

  settings(): EndpointSettings {
    const config = vscode.workspace.getConfiguration(SECTION);
    return readEndpointSettings((key) => config.inspect(key), vscode.workspace.isTrusted);
  }

  /** '' when the endpoint is not configured. */
  describe(): string {
    return describeEndpoint(this.settings());
  }

  /** The endpoint with its key, or undefined after telling the user what is missing. */
  async resolve(): Promise<ResolvedEndpoint | undefined> {
    const s = this.settings();
    const problems = endpointProblems(s);
    if (problems.length > 0) {
      const untrusted =
        !vscode.workspace.isTrusted &&
        vscode.workspace.getConfiguration(SECTION).inspect('baseURL')?.workspaceValue !== undefined
          ? ' (this workspace is not trusted, so its own personaLab.endpoint.baseURL is ignored: set it in the user settings or trust the workspace)'
          : '';
      const choice = await vscode.window.showErrorMessage(
        `Persona Lab: ${problems.join('; ')}${untrusted}.`,
        'Configure Endpoint…',
        'Open Settings',
      );
      if (choice === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', SECTION);
      else if (choice) await vscode.commands.executeCommand('personaLab.configureEndpoint');
      return undefined;
    }
    const apiKey = (await this.secrets.get(SECRET_KEY)) ?? '';
    return {
      config: {
        baseURL: s.baseURL,
        apiKey,
        model: s.model,
        temperature: s.temperature,
        maxTokens: s.maxTokens,
        timeoutMs: s.timeoutSeconds * 1000,
        maxReplyBytes: s.maxReplyMB * 1048576,
      },
      systemMessage: s.systemMessage.trim() === '' ? undefined : s.systemMessage,
      maxConcurrency: s.maxConcurrency,
      publicURL: publicBaseURL(s.baseURL),
      label: describeEndpoint(s),
    };
  }

  async hasKey(): Promise<boolean> {
    return ((await this.secrets.get(SECRET_KEY)) ?? '') !== '';
  }

  async setKey(): Promise<void> {
    const key = await vscode.window.showInputBox({
      title: 'Persona Lab: Set API Key',
      prompt:
        "The key for personaLab.endpoint.baseURL. Kept in VS Code's secret storage only: never in settings, logs, the history database or results.",
      password: true,
      ignoreFocusOut: true,
      placeHolder: 'sk-…',
      validateInput: (v) => (v.trim() === '' ? 'Type the key (Clear API Key removes it)' : undefined),
    });
    if (key === undefined) return;
    await this.secrets.store(SECRET_KEY, key.trim());
    void vscode.window.showInformationMessage("Persona Lab: API key stored in VS Code's secret storage.");
  }

  async clearKey(): Promise<void> {
    await this.secrets.delete(SECRET_KEY);
    void vscode.window.showInformationMessage('Persona Lab: API key removed.');
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.changed.dispose();
  }
}

export function activateEndpoint(context: vscode.ExtensionContext): EndpointService {
  const service = new EndpointService(context.secrets);
  context.subscriptions.push(service);
  return service;
}
