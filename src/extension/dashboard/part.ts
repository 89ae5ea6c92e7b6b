// What a format gives the dashboard host (its contribution's `dashboard`): its panel of tables and figures, which
// registers its own serializer (a reload of the window restores it). The host (index.ts) makes one per format.
import type * as vscode from 'vscode';
import type { LabelService } from '../labels/service';

export interface DashboardHost {
  readonly extensionUri: vscode.Uri;
  readonly state: vscode.Memento;
  readonly labels: LabelService;
}

export interface DashboardPart extends vscode.Disposable {
  show(): void;
}
