// Labelling projects on the team's label server (core/labels/server/queue.ts), for StreamProfileBench steps: New
// Labelling Project… (runs, all steps or a seeded sample, overlap N), Choose Labelling Project…, and Next Assigned
// (`.` in the step view while a project is active): it submits the step shown when it is this person's open claim,
// claims the next one and opens it. The Benchmarks view's message keeps the project's progress.
import * as vscode from 'vscode';
import { LabelQueues, type Project } from '../../core/labels/server/queue';
import { ServerLabelStore } from '../../core/labels/server/store';
import { itemOf, parseItem, seededSample } from '../../core/labels/server/projectItems';
import { isRecord } from '../../core/guards';
import type { SpbStore } from '../benchmarks/spb/store';
import { toStepRef } from '../stepView';
import type { StepViews } from '../stepView/views';
import type { TreeMessage } from '../tree/message';
import { log } from '../log';
import type { LabelService } from './service';
import type { LabelTreeAugment } from './spb/treeLabels';
import type { Step, User } from '../../core/spb/types';
import { passwordKey } from './serverLink';

const ACTIVE_KEY = 'personaLab.labelProject';
const CONTEXT_KEY = 'personaLab.labelProjectActive';

export class LabelProjects implements vscode.Disposable {
  private server: { url: string; store: Promise<ServerLabelStore> } | undefined;
  private project: Project | undefined;
  private progressRead: Promise<void> | undefined;
  private progressAgain = false;

  constructor(
    private readonly labels: LabelService,
    private readonly spb: SpbStore,
    private readonly views: StepViews,
    private readonly state: vscode.Memento,
    private readonly secrets: vscode.SecretStorage,
    private readonly message: TreeMessage,
    private readonly augment: LabelTreeAugment,
  ) {
    labels.projectActive = this.activeName !== undefined;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, labels.projectActive);
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
    const bench = this.spb.bench;
    const queues = await this.queues();
    if (!bench || !queues) return;
    const name = (
      await vscode.window.showInputBox({ title: 'New Labelling Project (1/4): name', ignoreFocusOut: true })
    )?.trim();
    if (!name) return;
    const runPicks = [...bench.runs.keys()].map((r) => ({ label: r, picked: r === this.spb.runName }));
    const runs = await vscode.window.showQuickPick(runPicks, {
      title: 'New Labelling Project (2/4): the runs whose steps are labelled',
      canPickMany: true,
      ignoreFocusOut: true,
    });
    if (!runs?.length) return;
    // With the tree's step filter on, the project may take the steps it shows (judged in the selected run).
    let keep: (user: User, step: Step) => boolean = () => true;
    const shown = this.augment.stepFilter();
    if (shown) {
      const choice = await vscode.window.showQuickPick(
        [
          { label: 'All steps of the runs', filtered: false },
          { label: 'The steps the tree shows', description: this.augment.describe(), filtered: true },
        ],
        { title: 'New Labelling Project: which steps', ignoreFocusOut: true },
      );
      if (!choice) return;
      if (choice.filtered) keep = shown;
    }
    const all: string[] = [];
    for (const run of runs)
      for (const users of bench.users.values())
        for (const u of users.values())
          for (const s of u.steps)
            if (keep(u, s)) all.push(itemOf(run.label, { platform: u.platform, userId: u.userId, stepId: s.stepId }));
    if (all.length === 0) {
      void vscode.window.showInformationMessage('Persona Lab: the tree shows no step of these runs: nothing to label.');
      return;
    }
    const size = await vscode.window.showInputBox({
      title: `New Labelling Project (3/4): how many of the ${all.length} steps (a sample seeded by the name)`,
      value: String(all.length),
      ignoreFocusOut: true,
      validateInput: (v) => (/^\d+$/.test(v) && Number(v) >= 1 ? undefined : 'a whole number, 1 or more'),
    });
    if (!size) return;
    const overlap = await vscode.window.showInputBox({
      title: 'New Labelling Project (4/4): annotators per step (overlap)',
      value: '2',
      ignoreFocusOut: true,
      validateInput: (v) => (/^\d+$/.test(v) && Number(v) >= 1 ? undefined : 'a whole number, 1 or more'),
    });
    if (!overlap) return;
    try {
      const items = Number(size) >= all.length ? all : seededSample(all, Number(size), name);
      const made = await queues.create({
        name,
        benchmark: this.labels.benchmarkOf(this.spb) ?? '',
        runs: runs.map((r) => r.label),
        labels: [],
        overlap: Number(overlap),
        createdBy: this.labels.author,
        items,
      });
      await this.activate(made);
      void vscode.window.showInformationMessage(
        `Persona Lab: project ${made.name}: ${made.itemCount} steps, ${made.overlap} annotator(s) each. Press . in the step view for your next step.`,
      );
    } catch (err) {
      void vscode.window.showErrorMessage(`Persona Lab: ${(err as Error).message}`);
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
      description: '. walks the unlabelled steps',
      project: undefined,
    };
    const picked = await vscode.window.showQuickPick(
      [
        ...projects.map((p) => ({
          label: p.name,
          description: `${p.itemCount} steps · ${p.overlap} each · runs ${p.runs.join(', ')}`,
          detail: `by ${p.createdBy}`,
          project: p,
        })),
        none,
      ],
      { title: 'Choose Labelling Project', placeHolder: projects.length ? undefined : 'No project on the server yet' },
    );
    if (picked) await this.activate(picked.project);
  }

  private async activate(p: Project | undefined): Promise<void> {
    this.project = p;
    this.labels.projectActive = p !== undefined;
    await this.state.update(ACTIVE_KEY, p?.name);
    await vscode.commands.executeCommand('setContext', CONTEXT_KEY, p !== undefined);
    await this.refreshProgress();
  }

  private async active(queues: LabelQueues): Promise<Project | undefined> {
    const name = this.activeName;
    if (!name) return undefined;
    if (this.project?.name !== name) this.project = await queues.get(name);
    return this.project;
  }

  /** Submits the step shown when it is this person's open claim, then opens their next step. */
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
      const me = this.labels.author;
      const panel = this.views.main;
      const from = toStepRef(arg);
      const run = isRecord(arg) && typeof arg.run === 'string' ? arg.run : undefined;
      const shown =
        from && run
          ? itemOf(run, from)
          : panel.currentRef && panel.runName
            ? itemOf(panel.runName, panel.currentRef)
            : undefined;
      const open = (await queues.claimed(project, me)).find((c) => !c.submitted);
      if (open && open.item === shown) await queues.submit(project, open.item, me);
      const next = await queues.next(project, me);
      await this.refreshProgress();
      if (next === undefined) {
        void vscode.window.showInformationMessage(`Persona Lab: nothing left for you in ${project.name}.`);
        return;
      }
      const at = parseItem(next);
      if (!at) throw new Error(`project ${project.name} holds an item Persona Lab cannot read: ${next}`);
      const pinned = at.run === this.spb.runName ? {} : { run: at.run };
      await vscode.commands.executeCommand('personaLab.openStep', { ...at.ref, ...pinned });
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
        `Project ${project.name}: ${p.done} of ${p.items} steps done (${project.overlap} each)${people ? ` · ${people}` : ''}`,
      );
    } catch (err) {
      log.warn(`label project progress: ${(err as Error).message}`);
    }
  }

  dispose(): void {
    void this.server?.store.then((s) => s.close()).catch(() => undefined);
  }
}
