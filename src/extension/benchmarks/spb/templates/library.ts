// The prompt templates a re-run can use: the built-in default and every .personalab/templates/*.plprompt file of
// the workspace. A template's text is read from its open editor when there is one (unsaved edits count).
import * as vscode from 'vscode';
import { DEFAULT_TEMPLATE, checkTemplate, templateId } from '../../../../core/spb/prompt/prompt';
import {
  BUILTIN_TEMPLATE_NAME,
  TEMPLATE_DIR,
  TEMPLATE_EXT,
  TEMPLATE_LANGUAGE,
  templateNameOf,
} from '../../../../core/spb/prompt/templateFiles';
import type { SpbStore } from '../store';
import {
  REFERENCE_PROMPT_NAME,
  templateSource,
  type PromptSource,
  type RenderedStepRequest,
  type StepPromptInput,
} from '../../../../core/spb/reference/source';
import { referenceUnavailable, type ReferencePrompts, type ReferenceState } from './reference';

const LAST_KEY = 'personaLab.lastTemplate';

export interface ChosenTemplate {
  name: string;
  text: string;
  /** templateId: the first 12 hex chars of the text's sha256 */
  id: string;
  uri: vscode.Uri | undefined;
  /** set for the benchmark's own prompt (bench_task.py), which renders every request instead of `text` ('') */
  source?: PromptSource;
}

const REFERENCE_KEY = 'reference';

interface TemplateItem extends vscode.QuickPickItem {
  uri: vscode.Uri | undefined;
  key: string;
}

export class TemplateLibrary {
  constructor(
    private readonly store: SpbStore,
    private readonly state: vscode.Memento,
    readonly reference: ReferencePrompts,
  ) {}

  /** The benchmark's prompt when the checkout is usable here, else Persona Lab's template and why not the other. */
  async preferred(): Promise<{ template: ChosenTemplate; why?: string }> {
    const state = await this.reference.state();
    if (state.kind === 'ready') return { template: referenceTemplate(state.source) };
    return { template: this.builtin(), why: referenceUnavailable(state) };
  }

  /** Where new templates go: the first workspace folder, else the benchmark folder. */
  folder(): vscode.Uri | undefined {
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri;
    const base = ws ?? (this.store.root ? vscode.Uri.file(this.store.root) : undefined);
    return base && vscode.Uri.joinPath(base, ...TEMPLATE_DIR.split('/'));
  }

  async list(): Promise<vscode.Uri[]> {
    const found = await vscode.workspace.findFiles(`${TEMPLATE_DIR}/*${TEMPLATE_EXT}`, undefined, 500);
    const folder = this.folder();
    // The benchmark folder's templates when it is not a workspace folder (findFiles searches workspace folders only).
    if (folder && !vscode.workspace.getWorkspaceFolder(folder)) {
      try {
        for (const [name, type] of await vscode.workspace.fs.readDirectory(folder)) {
          if (type === vscode.FileType.File && name.endsWith(TEMPLATE_EXT))
            found.push(vscode.Uri.joinPath(folder, name));
        }
      } catch {
        // no templates folder yet
      }
    }
    const unique = new Map(found.map((u) => [u.toString(), u]));
    return [...unique.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  async read(uri: vscode.Uri): Promise<ChosenTemplate> {
    const doc = await vscode.workspace.openTextDocument(uri);
    const text = doc.getText();
    return { name: templateNameOf(uri.path), text, id: templateId(text), uri };
  }

  builtin(): ChosenTemplate {
    return { name: BUILTIN_TEMPLATE_NAME, text: DEFAULT_TEMPLATE, id: templateId(DEFAULT_TEMPLATE), uri: undefined };
  }

  /** The template of the active editor, if it shows one. */
  active(): vscode.Uri | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    return doc && doc.languageId === TEMPLATE_LANGUAGE ? doc.uri : undefined;
  }

  /** Quick pick of the built-in default and the workspace's templates; the last one chosen comes first. */
  async pick(title: string, opts: { reference?: boolean } = {}): Promise<ChosenTemplate | undefined> {
    const uris = await this.list();
    const last = this.state.get<string>(LAST_KEY);
    const items: TemplateItem[] = [];
    const builtin = this.builtin();
    const ref: ReferenceState = opts.reference === false ? { kind: 'none' } : await this.reference.state();
    if (ref.kind !== 'none') {
      items.push({
        label: `$(verified) ${REFERENCE_PROMPT_NAME}`,
        description: ref.kind === 'ready' ? ref.source.id : 'not available',
        detail:
          ref.kind === 'ready'
            ? `Rendered by ${ref.checkout}/bench_task.py with its system message and temperature: the reference runner's requests`
            : referenceUnavailable(ref),
        uri: undefined,
        key: REFERENCE_KEY,
      });
    }
    items.push({
      label: `$(library) ${BUILTIN_TEMPLATE_NAME}`,
      description: builtin.id,
      detail:
        "Our own wording of the task, not the StreamProfileBench authors' prompt: its runs are another experiment (New Prompt Template copies it)",
      uri: undefined,
      key: 'builtin',
    });
    for (const uri of uris) {
      const t = await this.read(uri).catch(() => undefined);
      if (!t) continue;
      const errors = checkTemplate(t.text).filter((p) => p.severity === 'error').length;
      items.push({
        label: `$(file) ${t.name}`,
        description: t.id,
        detail: `${vscode.workspace.asRelativePath(uri)}${errors ? ` · ${errors} problem${errors === 1 ? '' : 's'}` : ''}`,
        uri,
        key: uri.toString(),
      });
    }
    const lastIndex = items.findIndex((i) => i.key === last);
    if (lastIndex > 0) items.unshift(...items.splice(lastIndex, 1));
    const picked = await vscode.window.showQuickPick(items, {
      title,
      placeHolder: 'Prompt template (id = first 12 hex chars of its sha256)',
      matchOnDescription: true,
      matchOnDetail: true,
      // Steps of a multi-step flow: a look at the step view in between must not cancel it.
      ignoreFocusOut: true,
    });
    if (!picked) return undefined;
    await this.state.update(LAST_KEY, picked.key);
    if (picked.key === REFERENCE_KEY) {
      if (ref.kind === 'ready') return referenceTemplate(ref.source);
      void vscode.window.showWarningMessage(`Persona Lab: ${referenceUnavailable(ref) ?? ''}`);
      return undefined;
    }
    return picked.uri ? this.read(picked.uri) : builtin;
  }

  /** Asks before using a template with error-level problems; true to go on. */
  async confirmUsable(t: ChosenTemplate): Promise<boolean> {
    if (t.source) return true;
    const errors = checkTemplate(t.text).filter((p) => p.severity === 'error');
    if (errors.length === 0) return true;
    const choice = await vscode.window.showWarningMessage(
      `Template "${t.name}" has ${errors.length} problem${errors.length === 1 ? '' : 's'}: ${errors[0].message}`,
      { modal: true },
      'Run Anyway',
    );
    return choice === 'Run Anyway';
  }
}

export function referenceTemplate(source: PromptSource): ChosenTemplate {
  return { name: source.name, text: '', id: source.id, uri: undefined, source };
}

/** A step's request as the chosen template (or the benchmark's own builder) renders it. */
export function renderChosen(
  t: ChosenTemplate,
  input: StepPromptInput,
  systemMessage?: string,
): Promise<RenderedStepRequest> {
  return (t.source ?? templateSource(t.name, t.text, systemMessage)).render(input);
}
