// What a format gives the labels feature (its contribution's `labels`): it wires labelling into its own views (an item
// page's labels bar, badges in its tree) on the one LabelService, and says what a labelling project's items are in
// its benchmark. The service, the label set, files, import and export, and the projects' queue are the same for all.
import type * as vscode from 'vscode';
import type { StepRef } from '../../core/labels/model';
import type { TreeApi } from '../tree/api';
import type { ProjectSource } from './projectSources';
import type { LabelService } from './service';

/** What a format's labels are wired with. */
export interface LabelHost {
  readonly labels: LabelService;
  readonly tree: TreeApi;
  /** Workspace state (a tree filter kept across reloads). */
  readonly state: vscode.Memento;
}

export interface LabelPart extends vscode.Disposable {
  /** Its items for labelling projects, when its format offers them. */
  readonly project?: ProjectSource;
  /**
   * How a label unit (a row of the Label Summary's table) opens in its view, when the unit is an item of its open
   * benchmark; undefined when it is not (the table then opens it as a step).
   */
  unitOpener?(ref: StepRef): (() => Promise<void>) | undefined;
}
