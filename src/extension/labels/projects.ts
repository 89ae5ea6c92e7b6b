// Labelling projects on the team's label server (core/labels/server/queue.ts), over the items each format's label
// part offers (projectSources.ts: steps, test actions): New Labelling Project… (benchmark, runs, all items or a seeded sample,
// overlap N), Choose Labelling Project…, and Next Assigned (`.` in the step or trace view while a project of its
// benchmark is active): it submits the item shown when it is this person's open claim, claims the next one and opens
// it. The Benchmarks view's message keeps the project's progress.
import * as vscode from 'vscode';
import { LabelQueues, type Project } from '../../core/labels/server/queue';
import { ServerLabelStore } from '../../core/labels/server/store';
import { itemNoun, itemNouns, parseItem, seededSample, type ItemKind } from '../../core/labels/server/projectItems';
import type { TreeMessage } from '../tree/message';
import { log } from '../log';
import type { LabelService } from './service';
import type { ProjectSource } from './projectSources';
import { passwordKey } from './serverLink';

const ACTIVE_KEY = 'personaLab.labelProject';
const ACTIVE_KIND_KEY = 'personaLab.labelProjectKind';
/** `.` and Alt+. in the step view walk the queue while a project of steps is active. */
const CONTEXT_KEY = 'personaLab.labelProjectActive';

export class LabelProjects implements vscode.Disposable {
  private server: { url: string; store: Promise<ServerLabelStore> } | undefined;
  private project: Project | undefined;
  private progressRead: Promise<void> | undefined;
  private progressAgain = false;

  constructor(
    private readonly labels: LabelService,
    private readonly sources: readonly ProjectSource[],
    private readonly state: vscode.Memento,
    private readonly secrets: vscode.SecretStorage,
    private readonly message: TreeMessage,
  ) {
    const name = this.activeName;
    this.setActive(
      name === undefined ? undefined : { name, itemKind: this.state.get<ItemKind>(ACTIVE_KIND_KEY) ?? 'step' },
    );
  }

  private setActive(project: { itemKind: ItemKind; name: string } | undefined): void {
    this.labels.setProject(project);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, project?.itemKind === 'step');
  }

  /** The open benchmark a project's items come from; undefined when that folder is not open. */
  private sourceOf(p: Pick<Project, 'benchmark' | 'itemKind'>): ProjectSource | undefined {
    return this.sources.find((s) => s.benchmark() === p.benchmark && (p.itemKind ?? s.itemKind) === s.itemKind);
  }

  get activeName(): string | undefined {
    return this.state.get<string>(ACTIVE_KEY) || undefined;
  }

  /** The server's queues; undefined after saying why (unless `quiet`: the progress line on every change). */
  private async queues(quiet = false): Promise<LabelQueues | undefined> {
    const url = this.labels.serverLink?.url;
    if (!url) {
      if (!quiet)
        void vscode.window.showErrorMessage(
          'Persona Lab: labelling projects live on a label server: set personaLab.labels.server to a postgres:// URL first.',
        );
      return undefined;
    }
    if (this.server?.url !== url) {
      void this.server?.store.then((s) => s.close()).catch(() => undefined);
      const open = async () => {
        const password = await this.secrets.get(passwordKey(url));
        return ServerLabelStore.open(url, { password: password || undefined, max: 2 });
      };
      this.server = { url, store: open() };
    }
    const server = this.server;
    try {
      return new LabelQueues(await server.store);
    } catch (err) {
      // The next command connects again (the server may be back, the password set).
      if (this.server === server) this.server = undefined;
      if (!quiet) void vscode.window.showErrorMessage(`Persona Lab: ${(err as Error).message}`);
      return undefined;
    }
  }

  async create(): Promise<void> {
    const source = await this.pickSource();
    const queues = source && (await this.queues());
    if (!source || !queues) return;
    const n = (step: number) => `New Labelling Project (${step}/4)`;
    const name = (await vscode.window.showInputBox({ title: `${n(1)}: name`, ignoreFocusOut: true }))?.trim();
    if (!name) return;
    const selected = source.selectedRun();
    const runs = await vscode.window.showQuickPick(
      source.runNames().map((r) => ({ label: r, picked: r === selected })),
      {
        title: `${n(2)}: the runs whose ${itemNouns(source.itemKind)} are labelled`,
        canPickMany: true,
        ignoreFocusOut: true,
      },
    );
    if (!runs?.length) return;
    const all = await source.items(runs.map((r) => r.label));
    if (!all) return;
    if (all.length === 0) {
      void vscode.window.showInformationMessage(`Persona Lab: no ${itemNoun(source.itemKind)} of these runs to label.`);
      return;
    }
    const size = await vscode.window.showInputBox({
      title: `${n(3)}: how many of the ${all.length} ${itemNouns(source.itemKind)} (a sample seeded by the name)`,
      value: String(all.length),
      ignoreFocusOut: true,
      validateInput: (v) => (/^\d+$/.test(v) && Number(v) >= 1 ? undefined : 'a whole number, 1 or more'),
    });
    if (!size) return;
    const overlap = await vscode.window.showInputBox({
      title: `${n(4)}: annotators per ${itemNoun(source.itemKind)} (overlap)`,
      value: '2',
      ignoreFocusOut: true,
      validateInput: (v) => (/^\d+$/.test(v) && Number(v) >= 1 ? undefined : 'a whole number, 1 or more'),
    });
    if (!overlap) return;
    try {
      const items = Number(size) >= all.length ? all : seededSample(all, Number(size), name);
      const made = await queues.create({
        name,
        benchmark: source.benchmark() ?? '',
        runs: runs.map((r) => r.label),
        labels: [],
        overlap: Number(overlap),
        createdBy: this.labels.author,
        items,
      });
      await this.activate(made, source);
      void vscode.window.showInformationMessage(
        `Persona Lab: project ${made.name}: ${made.itemCount} ${itemNouns(made.itemKind)}, ${made.overlap} annotator(s) each. Press . in the ${source.view} for your next ${itemNoun(made.itemKind)}.`,
      );
    } catch (err) {
      void vscode.window.showErrorMessage(`Persona Lab: ${(err as Error).message}`);
    }
  }

  /** The benchmark a new project labels: the one open, or the one picked when both are (the active view's first). */
  private async pickSource(): Promise<ProjectSource | undefined> {
    const open = this.sources.filter((s) => s.benchmark() !== undefined);
    if (open.length <= 1) return open[0];
    open.sort((a, b) => Number(b.viewActive()) - Number(a.viewActive()));
    const picked = await vscode.window.showQuickPick(
      open.map((s) => ({ label: s.title, description: `its ${itemNouns(s.itemKind)}`, source: s })),
      { title: 'New Labelling Project: which benchmark', ignoreFocusOut: true },
    );
    return picked?.source;
  }

  /** Every project on the server with its items (the adjudication pass's scopes); undefined after saying why. */
  async withItems(): Promise<{ name: string; benchmark: string; items: string[] }[] | undefined> {
    const queues = await this.queues();
    if (!queues) return undefined;
    try {
      const projects = await queues.list();
      return await Promise.all(
        projects.map(async (p) => ({ name: p.name, benchmark: p.benchmark, items: await queues.items(p) })),
      );
    } catch (err) {
      void vscode.window.showErrorMessage(`Persona Lab: ${(err as Error).message}`);
      return undefined;
    }
  }

  async choose(): Promise<void> {
    const queues = await this.queues();
    if (!queues) return;
    const projects = await queues.list().catch((err: Error) => {
      void vscode.window.showErrorMessage(`Persona Lab: ${err.message}`);
      return undefined;
    });
    if (!projects) return;
    const none = {
      label: '$(circle-slash) No project',
      description: '. walks the unlabelled steps and test actions',
      project: undefined,
      source: undefined,
    };
    const picked = await vscode.window.showQuickPick(
      [
        ...projects.map((p) => {
          const source = this.sourceOf(p);
          return {
            label: p.name,
            description: `${p.itemCount} ${itemNouns(p.itemKind)} · ${p.overlap} each · runs ${p.runs.join(', ')}`,
            detail: `by ${p.createdBy}${source ? ` · ${source.title}` : ' · its benchmark folder is not open here'}`,
            project: p,
            source,
          };
        }),
        none,
      ],
      { title: 'Choose Labelling Project', placeHolder: projects.length ? undefined : 'No project on the server yet' },
    );
    if (!picked) return;
    if (picked.project && !picked.source) {
      void vscode.window.showWarningMessage(
        `Persona Lab: project ${picked.project.name} labels another benchmark folder: open that folder, then choose it.`,
      );
      return;
    }
    await this.activate(picked.project, picked.source);
  }

  private async activate(p: Project | undefined, source: ProjectSource | undefined): Promise<void> {
    this.project = p;
    this.setActive(p && source && { itemKind: source.itemKind, name: p.name });
    await this.state.update(ACTIVE_KEY, p?.name);
    await this.state.update(ACTIVE_KIND_KEY, p && source?.itemKind);
    await this.refreshProgress();
  }

  private async active(queues: LabelQueues): Promise<Project | undefined> {
    const name = this.activeName;
    if (!name) return undefined;
    if (this.project?.name !== name) this.project = await queues.get(name);
    return this.project;
  }

  /** Submits the item shown when it is this person's open claim, then opens their next item. */
  async nextAssigned(arg?: unknown): Promise<void> {
    const queues = await this.queues();
    if (!queues) return;
    try {
      const project = await this.active(queues);
      if (!project) {
        void vscode.window.showInformationMessage(
          'Persona Lab: no labelling project is active (Choose Labelling Project…).',
        );
        return;
      }
      const source = this.sourceOf(project);
      if (!source) {
        void vscode.window.showWarningMessage(
          `Persona Lab: project ${project.name} labels another benchmark folder: open that folder to walk its queue.`,
        );
        return;
      }
      const me = this.labels.author;
      const shown = source.shownItem(arg);
      const open = (await queues.claimed(project, me)).find((c) => !c.submitted);
      if (open && open.item === shown) await queues.submit(project, open.item, me);
      const next = await queues.next(project, me);
      await this.refreshProgress();
      if (next === undefined) {
        void vscode.window.showInformationMessage(`Persona Lab: nothing left for you in ${project.name}.`);
        return;
      }
      const at = parseItem(next);
      if (!at || !(await source.open(at)))
        throw new Error(
          `project ${project.name} holds an item Persona Lab cannot open as a ${itemNoun(source.itemKind)}: ${next}`,
        );
    } catch (err) {
      void vscode.window.showErrorMessage(`Persona Lab: ${(err as Error).message}`);
    }
  }

  /**
   * The Benchmarks view's message: the active project's progress. Labels change on every keypress; while one read is
   * on its way the changes after it start one more read when it ends, not one each.
   */
  refreshProgress(): Promise<void> {
    if (this.progressRead) {
      this.progressAgain = true;
      return this.progressRead;
    }
    const read = (async () => {
      do {
        this.progressAgain = false;
        await this.readProgress();
      } while (this.progressAgain);
    })().finally(() => (this.progressRead = undefined));
    this.progressRead = read;
    return read;
  }

  private async readProgress(): Promise<void> {
    if (!this.activeName || !this.labels.serverLink) return this.message.set('project', undefined);
    const queues = await this.queues(true);
    const project = queues && (await this.active(queues).catch(() => undefined));
    if (!queues || !project) return this.message.set('project', undefined);
    try {
      const p = await queues.progress(project);
      const people = p.annotators.map((a) => `${a.annotator} ${a.submitted}`).join(' · ');
      this.message.set(
        'project',
        `Project ${project.name}: ${p.done} of ${p.items} ${itemNouns(project.itemKind)} done (${project.overlap} each)${people ? ` · ${people}` : ''}`,
      );
    } catch (err) {
      log.warn(`label project progress: ${(err as Error).message}`);
    }
  }

  dispose(): void {
    void this.server?.store.then((s) => s.close()).catch(() => undefined);
  }
}
