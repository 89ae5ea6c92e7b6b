// Configure Endpoint…: a preset (OpenAI, DeepSeek, vLLM, SGLang, other), then its base URL and model, written to the
// user settings (an untrusted workspace ignores a workspace's base URL, so the user's own settings are the place),
// then the API key where the preset needs one.
import * as vscode from 'vscode';
import type { EndpointService } from '.';
import { baseURLProblem, ENDPOINT_PRESETS, SECTION, type EndpointPreset } from './settings';

interface PresetItem extends vscode.QuickPickItem {
  preset: EndpointPreset;
}

export async function configureEndpoint(endpoint: EndpointService): Promise<void> {
  const current = endpoint.settings();
  const title = 'Persona Lab: Configure Endpoint';
  const picked = await vscode.window.showQuickPick<PresetItem>(
    ENDPOINT_PRESETS.map((preset) => ({
      label: preset.label,
      description: preset.baseURL,
      detail: preset.detail,
      preset,
    })),
    {
      title: `${title} (1/3): server`,
      placeHolder: current.baseURL
        ? `Now: ${endpoint.describe() || current.baseURL}`
        : 'Where re-runs and runs send their requests',
      ignoreFocusOut: true,
    },
  );
  if (!picked) return;
  const { preset } = picked;
  const baseURL = await vscode.window.showInputBox({
    title: `${title} (2/3): base URL`,
    prompt: 'The OpenAI-compatible base URL (…/v1)',
    value: preset.baseURL || current.baseURL,
    ignoreFocusOut: true,
    validateInput: (v) => baseURLProblem(v),
  });
  if (baseURL === undefined) return;
  const model = await vscode.window.showInputBox({
    title: `${title} (3/3): model`,
    prompt: preset.model ? 'The model name the server knows' : 'The served model’s name (as the server lists it)',
    value: preset.model || current.model,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? 'Type the model name' : undefined),
  });
  if (model === undefined) return;
  const config = vscode.workspace.getConfiguration(SECTION);
  const target = vscode.ConfigurationTarget.Global;
  await config.update('baseURL', baseURL.trim(), target);
  await config.update('model', model.trim(), target);
  await config.update('maxConcurrency', preset.maxConcurrency, target);
  if (preset.needsKey && !(await endpoint.hasKey())) await endpoint.setKey();
  vscode.window.setStatusBarMessage(`Persona Lab: endpoint set: ${endpoint.describe()}`, 8000);
}
