// Persona Lab: Adjudicate Labels…: the adjudication pass over the units of a labelling project, or of the
// Disagreements list (every unit of the open benchmarks that two or more annotators did), in the views where their
// labels are made (each format's ProjectSource opens a unit). It opens the open units one after another; on each,
// the view's labels bar shows the annotators' labels and notes side by side (the section, core/labels/adjudication.ts)
// and its keys decide: a number takes that annotator's labels as gold, `g` sets them directly, `u` undoes the pass's
// last decision, `.` goes on. Decisions are gold rows (GoldStore, or the label server's with the adjudicator role);
// the Benchmarks view's message keeps the progress (settled · agreed · open).
import * as vscode from 'vscode';
import {
  adjudicationSection,
  annotatorLabels,
  DecisionTrail,
  nextOpen,
  passItems,
  passProgress,
  progressText,
  type AdjudicationSection,
  type PassItem,
} from '../../../core/labels/adjudication';
import { stepKey, type LabelRow, type StepRef } from '../../../core/labels/model';
import { parseItem, unitItem } from '../../../core/labels/server/projectItems';
import type { LabelDef } from '../../../core/labels/taxonomy';
import type { AdjudicateAction } from '../../../shared/labelProtocol';
import { log } from '../../log';
import type { TreeMessage } from '../../tree/message';
import type { ProjectSource } from '../projectSources';
import type { LabelService } from '../service';
import { passwordKey } from '../serverLink';
import { fileGold, serverGold, type GoldBackend } from './goldBackend';
import { DISAGREEMENTS_SCOPE, type AdjudicationHook } from './hook';

/** What the pass walks: its name in messages, and the units it keeps (all of the open benchmarks' when no filter). */
export interface PassScope {
  name: string;
  keeps?: (ref: StepRef) => boolean;
}

/** What the command's pick gives: a scope to walk, or stop. */
type ScopePick = { scope?: PassScope; stop?: true };

/** A project's items as a scope (projects.ts lists them). */
export interface ProjectScopes {
  withItems(): Promise<{ name: string; benchmark: string; items: string[] }[] | undefined>;
}

export class AdjudicationPass implements AdjudicationHook, vscode.Disposable {
  private scope: PassScope | undefined;
  private items: PassItem[] = [];
  private trail = new DecisionTrail();
  private gold: { where: string; backend: GoldBackend } | undefined;
  private notifying = false;
  private reading: Promise<void> = Promise.resolve();
  /** A read asked for and not begun yet: later asks join it (a burst of label changes reads the rows once). */
  private queued: Promise<void> | undefined;
  private acting: Promise<void> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly labels: LabelService,
    private readonly sources: readonly ProjectSource[],
    private readonly projects: ProjectScopes,
    private readonly message: TreeMessage,
    private readonly secrets: vscode.SecretStorage,
  ) {
    labels.adjudication = this;
    this.disposables.push(
      labels.onDidChange(() => {
        if (!this.notifying && this.scope) void this.refresh();
      }),
    );
  }

  get active(): boolean {
    return this.scope !== undefined;
  }

  /** The command: pick what to walk (or stop; `arg` DISAGREEMENTS_SCOPE walks that list), then open its first open unit. */
  async start(arg?: unknown): Promise<void> {
    const disagreements: PassScope = { name: 'the Disagreements list', keeps: (ref) => this.isOpenHere(ref) };
    const picked: ScopePick | undefined =
      arg === DISAGREEMENTS_SCOPE ? { scope: disagreements } : await this.pickScope(disagreements);
    if (!picked) return;
    if (picked.stop || !picked.scope) return this.stop();
    await this.begin(picked.scope);
  }

  private async pickScope(disagreements: PassScope): Promise<ScopePick | undefined> {
    const picks: (vscode.QuickPickItem & ScopePick)[] = [
      {
        label: 'Disagreements',
        description: 'every unit two or more annotators did, in the open benchmarks',
        scope: disagreements,
      },
    ];
    if (this.labels.serverLink) {
      for (const p of (await this.projects.withItems()) ?? []) {
        const items = new Set(p.items);
        picks.push({
          label: `Project ${p.name}`,
          description: `${p.items.length} item(s)`,
          scope: {
            name: `project ${p.name}`,
            keeps: (ref) => ref.benchmark === p.benchmark && items.has(unitItem(ref)),
          },
        });
      }
    }
    if (this.scope)
      picks.push({ label: '$(circle-slash) Stop adjudicating', description: this.scope.name, stop: true });
    return vscode.window.showQuickPick(picks, {
      title: 'Adjudicate Labels: which units',
      placeHolder: 'The pass opens the units whose annotators disagree, one after another',
    });
  }

  private async begin(scope: PassScope): Promise<void> {
    await this.labels.ensureAuthor();
    this.scope = scope;
    this.trail = new DecisionTrail();
    log.info(`adjudication: pass over ${scope.name}`);
    await this.refresh();
    const first = nextOpen(this.items);
    if (!first) {
      void vscode.window.showInformationMessage(
        `Persona Lab: nothing to adjudicate in ${scope.name}: ${progressText(passProgress(this.items))}.`,
      );
      return;
    }
    await this.openUnit(first.ref);
  }

  stop(): void {
    this.scope = undefined;
    this.items = [];
    this.message.set('adjudication', undefined);
    this.notify();
  }

  private isOpenHere(ref: StepRef): boolean {
    return this.sources.some((s) => s.benchmark() === ref.benchmark);
  }

  /** The label database's gold rows: the file's, or the server's when one is set (made again when that changes). */
  private backend(): GoldBackend {
    const url = this.labels.serverUrl;
    const where = url || this.labels.dbFile;
    if (this.gold?.where !== where) {
      this.gold?.backend.close();
      const backend = url ? serverGold(url, () => this.secrets.get(passwordKey(url))) : fileGold(where);
      this.gold = { where, backend };
    }
    return this.gold.backend;
  }

  /** Reads the labels and the decisions again, then tells the views; one read at a time, in order. */
  refresh(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.reading.then(() => {
      this.queued = undefined;
      return this.read();
    });
    this.queued = next;
    this.reading = next;
    return next;
  }

  private async read(): Promise<void> {
    const scope = this.scope;
    if (!scope) return;
    try {
      const rows = this.labels.store(false)?.list() ?? [];
      const adjudications = await this.backend().adjudications();
      const keep = scope.keeps;
      this.items = passItems(rows, adjudications).filter((i) => !keep || keep(i.ref));
      this.message.set('adjudication', `Adjudication (${scope.name}): ${progressText(passProgress(this.items))}`);
    } catch (err) {
      log.warn(`adjudication: cannot read the gold rows: ${(err as Error).message}`);
      void vscode.window.showErrorMessage(`Persona Lab: ${(err as Error).message}`);
    }
    this.notify();
  }

  /** The views push their labels bars again (the service's change event, which this pass does not follow back). */
  private notify(): void {
    this.notifying = true;
    try {
      this.labels.touch();
    } finally {
      this.notifying = false;
    }
  }

  section(unit: StepRef | undefined): AdjudicationSection | null {
    if (!this.scope || !unit) return null;
    const key = stepKey(unit);
    const item = this.items.find((i) => i.key === key);
    if (!item) return null;
    let rows: LabelRow[] = [];
    try {
      rows = this.labels.store(false)?.listByStep(unit) ?? [];
    } catch (err) {
      log.warn(`adjudication: cannot read the unit's labels: ${(err as Error).message}`);
    }
    return adjudicationSection(item, rows, this.labels.names(), {
      scope: this.scope.name,
      progress: passProgress(this.items),
      canUndo: this.trail.size > 0,
    });
  }

  /** One decision at a time, in the order the keys came: the next waits for the pass to have moved on. */
  act(action: AdjudicateAction, labelSet: readonly LabelDef[]): Promise<void> {
    this.acting = this.acting.then(() => this.actNow(action, labelSet));
    return this.acting;
  }

  private async actNow(action: AdjudicateAction, labelSet: readonly LabelDef[]): Promise<void> {
    if (!this.scope) return;
    const item = this.items.find((i) => i.key === action.unit);
    try {
      if (action.take === 'undo') return await this.undo();
      if (action.take === 'next') return await this.goOn(action.unit);
      if (!item) return;
      const labels =
        action.take === 'set' ? await this.pickLabels(item, labelSet) : annotatorLabels(item.unit, action.take);
      if (!labels) return;
      await this.backend().decide(item.ref, labels, this.labels.author);
      this.trail.push(item.ref);
      log.info(`adjudication: ${item.key} settled on [${labels.join(', ')}]`);
      await this.refresh();
      await this.goOn(item.key);
    } catch (err) {
      void vscode.window.showErrorMessage(`Persona Lab: ${(err as Error).message}`);
    }
  }

  /** The labels a person sets directly: the label set, with the unit's gold (or what all annotators gave) ticked. */
  private async pickLabels(item: PassItem, labelSet: readonly LabelDef[]): Promise<string[] | undefined> {
    const shared = item.unit.annotators
      .map((a) => new Set(a.labels))
      .reduce((a, b) => new Set([...a].filter((l) => b.has(l))));
    const ticked = new Set(item.unit.gold ?? shared);
    const picked = await vscode.window.showQuickPick(
      labelSet.map((l) => ({ label: l.name, description: l.id, id: l.id, picked: ticked.has(l.id) })),
      { title: 'Adjudicate: the gold labels of this unit (none ticked: no label applies)', canPickMany: true },
    );
    return picked?.map((p) => p.id);
  }

  private async undo(): Promise<void> {
    const ref = this.trail.pop();
    if (!ref) {
      void vscode.window.showInformationMessage('Persona Lab: no decision of this pass to undo.');
      return;
    }
    await this.backend().undo(ref, this.labels.author);
    log.info(`adjudication: undid the decision on ${stepKey(ref)}`);
    await this.refresh();
    await this.openUnit(ref);
  }

  private async goOn(after: string): Promise<void> {
    const next = nextOpen(this.items, after);
    if (!next) {
      void vscode.window.showInformationMessage(
        `Persona Lab: ${this.scope?.name ?? 'the pass'} has no open unit left: ${progressText(passProgress(this.items))}.`,
      );
      return;
    }
    await this.openUnit(next.ref);
  }

  /** Opens a unit in the view of its benchmark (the source whose items are of its kind). */
  private async openUnit(ref: StepRef): Promise<void> {
    const item = parseItem(unitItem(ref));
    const source = item && this.sources.find((s) => s.benchmark() === ref.benchmark && s.itemKind === item.kind);
    if (!item || !source || !(await source.open(item)))
      void vscode.window.showWarningMessage(
        `Persona Lab: cannot open ${stepKey(ref)}: its benchmark is not open here.`,
      );
  }

  dispose(): void {
    if (this.labels.adjudication === this) this.labels.adjudication = undefined;
    this.gold?.backend.close();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
