// The label database and label set of this window, for every format: settings, the workspace's
// `.personalab/labels.json` (validated, its problems in the Problems panel), the `benchmark` column of an open
// benchmark, and change events (this window's writes at once, other windows' and the CLI's through a file watcher).
// What a label goes on (a step, a test action, a history record) is each format's label part (part.ts).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import { formatLabelSets } from '../../core/formats';
import { openReplica } from '../../core/labels/server/sync';
import { LabelStore } from '../../core/labels/store';
import { serverUrlProblem } from '../../core/storage/postgres';
import {
  defaultLabelSet,
  labelNames,
  loadLabelSet,
  type FormatLabelSet,
  type LabelDef,
  type LabelSet,
} from '../../core/labels/taxonomy';
import { RESERVED_LABEL_KEYS } from '../../shared/labelProtocol';
import type { OpenBenchmark } from '../benchmarks/types';
import { fileDiagnostics } from '../diagnostics';
import type { ItemKind } from '../../core/labels/server/projectItems';
import { userInfo } from 'node:os';
import { AuthorGate } from './author';
import { authorName, benchmarkId, dbPath, labelSetPath, labelsHome } from './paths';
import { restrictedSetting } from '../trustedSettings';
import type { LabelServerLine } from '../../core/labels/view';
import { DecisionSource } from './gold/decisionSource';
import { passwordKey, replicaPath, serverNote, ServerLink, type ServerStatus } from './serverLink';
import type { AdjudicationHook } from './adjudicate/hook';
import { platformUnitNoun, type UnitNamer } from '../../core/labels/unitNoun';

const EXTERNAL_CHANGE_DELAY_MS = 300;

export class LabelService implements vscode.Disposable {
  private db: LabelStore | undefined;
  private openError: string | null = null;
  private set: LabelSet;
  private paths = { db: '', labelSet: '' };
  /** personaLab.labels.server ('' for the embedded file); the store is then its replica, kept in sync by `link`. */
  private server = '';
  private link: ServerLink | undefined;
  private activeProject: { itemKind: ItemKind; name: string } | undefined;
  private changes = 0;
  private seenVersion = -1;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after any change of labels, the label set, the author, the database file or the active project. */
  readonly onDidChange = this.changed.event;
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('personaLab.labels');
  private watchers: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** The adjudicators' decisions, for the views that show gold (the file's, or the label server's). */
  readonly decisions: DecisionSource;

  /**
   * `home`: the benchmark whose folder holds `.personalab/` when the window has no folder (else `fallbackDir`, the
   * extension's global storage).
   */
  constructor(
    private readonly home: OpenBenchmark,
    private readonly fallbackDir: string,
    private readonly secrets: vscode.SecretStorage,
    /** The label sets of the formats served (their descriptors' `labels.set`). */
    readonly formatSets: readonly FormatLabelSet[] = formatLabelSets(),
  ) {
    this.set = defaultLabelSet([], formatSets);
    this.decisions = new DecisionSource(
      () => ({ file: this.paths.db, server: this.server }),
      (url) => secrets.get(passwordKey(url)),
      () => this.touch(),
    );
    this.disposables.push(
      { dispose: () => this.decisions.dispose() },
      // With a label server, each change may come with decisions made elsewhere: read again while a view shows gold.
      this.changed.event(() => this.decisions.labelsChanged()),
      this.changed,
      this.diagnostics,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('personaLab.labels')) this.reload();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reload()),
      // The labels home may be the benchmark folder.
      home.onDidChange(() => this.reload(false)),
      secrets.onDidChange((e) => {
        if (this.server && e.key === passwordKey(this.server)) this.link?.soon();
      }),
    );
    this.reload(false);
  }

  get author(): string {
    return authorName(this.authorGate.current());
  }

  private readonly authorGate = new AuthorGate({
    setting: () => vscode.workspace.getConfiguration('personaLab.labels').get<string>('author') ?? '',
    osUser: () => {
      try {
        return userInfo().username;
      } catch {
        return '';
      }
    },
    ask: (q) => vscode.window.showInputBox({ ...q, ignoreFocusOut: true }),
    save: (name) =>
      vscode.workspace.getConfiguration('personaLab.labels').update('author', name, vscode.ConfigurationTarget.Global),
  });

  /** Before a label is written: the author, asked once when personaLab.labels.author is empty (author.ts). */
  ensureAuthor(): Promise<string> {
    return this.authorGate.ensure();
  }

  /** The `benchmark` column of labels on `open` (its folder's name); undefined when it is not loaded. */
  /**
   * The name of the active labelling project (projects.ts) when its items are of `kind`, else null: `.` in the view
   * of those items walks its queue instead of going to the next unlabelled one.
   */
  projectIn(kind: ItemKind): string | null {
    return this.activeProject?.itemKind === kind ? this.activeProject.name : null;
  }

  setProject(project: { itemKind: ItemKind; name: string } | undefined): void {
    if (project?.itemKind === this.activeProject?.itemKind && project?.name === this.activeProject?.name) return;
    this.activeProject = project && { ...project };
    this.changed.fire();
  }

  benchmarkOf(open: Pick<OpenBenchmark, 'root'>): string | undefined {
    return open.root ? benchmarkId(open.root) : undefined;
  }

  /** The adjudication pass (adjudicate/pass.ts): the section each view's labels bar shows on a unit it walks. */
  adjudication: AdjudicationHook | undefined;

  /** What a benchmark's units are called in the summaries: its format's noun when it is open (labels/index.ts). */
  unitOf: UnitNamer = platformUnitNoun;

  /** Tells every listener that what the views show changed without a label write (a gold decision was read). */
  touch(): void {
    this.changes++;
    this.changed.fire();
  }

  /** Bumped when what was read from the store may be out of date, before onDidChange fires: the adapters' caches. */
  get generation(): number {
    return this.changes;
  }

  /** The main set (`labels` in labels.json). */
  get labels(): readonly LabelDef[] {
    return this.set.labels;
  }

  /** The labels of a format's own set (its key in labels.json); none when no format adds that key. */
  labelsOf(key: string): readonly LabelDef[] {
    return this.set.formatSets[key] ?? [];
  }

  get labelSetFile(): string {
    return this.paths.labelSet;
  }

  get dbFile(): string {
    return this.paths.db;
  }

  /** Why the database could not be opened, or that it is read-only (its labels shown, none changed); else null. */
  get error(): string | null {
    if (this.openError === null && this.db?.readOnly)
      return `read-only: ${this.paths.db} cannot be written here; its labels are shown but cannot be changed`;
    return this.openError;
  }

  /** A one-line note when the workspace label set has errors (the defaults are in use), else null. */
  get labelSetNote(): string | null {
    const errors = this.set.diagnostics.filter((d) => d.severity === 'error').length;
    return errors
      ? `${basename(dirname(this.paths.labelSet))}/${basename(this.paths.labelSet)} has ${errors} error(s): the default labels are in use (see the Problems panel)`
      : null;
  }

  names(): Map<string, string> {
    return labelNames(this.set);
  }

  /** The store, opened on first use; creating the file only when `create` (a write). undefined: no file yet, or an error. */
  store(create: boolean): LabelStore | undefined {
    if (this.db) return this.db;
    if (this.server) return this.openReplica();
    if (!create && !existsSync(this.paths.db)) return undefined;
    // A file or folder this window cannot write opens read-only: the labels are shown, the bar says read-only.
    const opened = LabelStore.tryOpen(this.paths.db, { readOnly: 'when-unwritable' });
    if (!opened.ok) {
      if (this.openError !== opened.message) void vscode.window.showErrorMessage(`Persona Lab: ${opened.message}`);
      this.openError = opened.message;
      return undefined;
    }
    this.openError = null;
    this.db = opened.store;
    this.seenVersion = this.db.dataVersion();
    this.watchDb();
    return this.db;
  }

  /** What the labels bar says about the server; null when the labels are in the embedded file. */
  get serverLine(): LabelServerLine | null {
    const s = this.link?.status;
    return s ? { state: s.state, pending: s.pending, text: serverNote(s) } : null;
  }

  /** personaLab.labels.server as set ('' for the embedded file). */
  get serverUrl(): string {
    return this.server;
  }

  /** The label server's state for the labels bar; null when the labels are in the embedded file. */
  get serverStatus(): ServerStatus | null {
    return this.link?.status ?? null;
  }

  /** The link to the label server (undefined: none set, or its replica could not be opened). */
  get serverLink(): ServerLink | undefined {
    if (!this.server) return undefined;
    this.store(true);
    return this.link;
  }

  private openReplica(): LabelStore | undefined {
    const problem = serverUrlProblem(this.server);
    if (problem) {
      this.openError = `personaLab.labels.server: ${problem}`;
      return undefined;
    }
    try {
      const { store, outbox } = openReplica(this.paths.db, this.server);
      const url = this.server;
      this.db = store;
      this.link = new ServerLink(
        store,
        outbox,
        url,
        () => this.secrets.get(passwordKey(url)),
        () => {
          this.changes++;
          this.changed.fire();
        },
      );
      this.openError = null;
      this.seenVersion = store.dataVersion();
      this.watchDb();
      return store;
    } catch (err) {
      const message = (err as Error).message;
      if (this.openError !== message) void vscode.window.showErrorMessage(`Persona Lab: ${message}`);
      this.openError = message;
      return undefined;
    }
  }

  /** Runs a write against the store (created if needed), then tells every listener. Throws LabelStoreError. */
  write<T>(fn: (store: LabelStore) => T): T {
    const store = this.store(true);
    if (!store) throw new Error(this.openError ?? 'the label database is not available');
    try {
      return fn(store);
    } finally {
      this.link?.soon();
      this.changes++;
      this.changed.fire();
    }
  }

  /** Re-reads settings and the label set; reopens the database when its path changed. */
  reload(fire = true): void {
    const folders = (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => f.uri.fsPath);
    const home = labelsHome(folders, this.home.root, this.fallbackDir);
    const file = dbPath(restrictedSetting<string>('personaLab.labels.dbPath'), folders, homedir(), home);
    const labelSet = labelSetPath(home);
    const server = (restrictedSetting<string>('personaLab.labels.server') ?? '').trim();
    const db = server ? replicaPath(home, server) : file;
    const moved = db !== this.paths.db || labelSet !== this.paths.labelSet;
    if (db !== this.paths.db || server !== this.server) {
      this.link?.dispose();
      this.link = undefined;
      this.db?.close();
      this.db = undefined;
      this.openError = null;
    }
    this.server = server;
    this.paths = { db, labelSet };
    if (moved) this.watchFiles();
    this.loadSet();
    this.changes++;
    if (fire) this.changed.fire();
  }

  private loadSet(): void {
    this.set = loadLabelSet(this.paths.labelSet, this.paths.labelSet, {
      reservedKeys: RESERVED_LABEL_KEYS,
      formatSets: this.formatSets,
    });
    const uri = vscode.Uri.file(this.paths.labelSet);
    this.diagnostics.clear();
    if (this.set.diagnostics.length === 0) return;
    this.diagnostics.set(uri, fileDiagnostics(this.set.diagnostics, 'Persona Lab labels'));
  }

  /** Watches the label set file, and the database (with its -wal) for writes from other windows or the CLI. */
  private watchFiles(): void {
    for (const w of this.watchers.splice(0)) w.dispose();
    const setWatcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(dirname(this.paths.labelSet)), basename(this.paths.labelSet)),
    );
    const onSet = () => {
      this.loadSet();
      this.changed.fire();
    };
    this.watchers.push(
      setWatcher,
      setWatcher.onDidCreate(onSet),
      setWatcher.onDidChange(onSet),
      setWatcher.onDidDelete(onSet),
    );
    this.watchDb();
  }

  private dbWatcher: vscode.FileSystemWatcher | undefined;
  private watchDb(): void {
    this.dbWatcher?.dispose();
    const w = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(dirname(this.paths.db)), `${basename(this.paths.db)}*`),
    );
    this.dbWatcher = w;
    const schedule = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.onDbFileChanged(), EXTERNAL_CHANGE_DELAY_MS);
    };
    w.onDidCreate(schedule);
    w.onDidChange(schedule);
    w.onDidDelete(schedule);
  }

  private onDbFileChanged(): void {
    if (!this.db) {
      // Created by another window or the CLI: open it now that it exists.
      if (existsSync(this.paths.db)) {
        this.changes++;
        this.changed.fire();
      }
      return;
    }
    if (this.db.readOnly) {
      // Read-only stores may read a snapshot of the file: read it again.
      this.db.close();
      this.db = undefined;
      this.changes++;
      this.changed.fire();
      return;
    }
    let version: number;
    try {
      version = this.db.dataVersion();
    } catch {
      return;
    }
    // Our own commits leave data_version as it is: only another connection's writes refresh the views.
    if (version === this.seenVersion) return;
    this.seenVersion = version;
    this.changes++;
    this.changed.fire();
  }

  dispose(): void {
    this.link?.dispose();
    clearTimeout(this.timer);
    this.dbWatcher?.dispose();
    for (const w of this.watchers.splice(0)) w.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.db?.close();
  }
}
