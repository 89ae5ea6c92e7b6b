// The Import Labels conflict table's webview protocol (extension: src/extension/labels/importPanel.ts, webview:
// webview/labelimport). The webview posts `ready`; the extension answers `show` with the table, and again after each
// decision. `decide` sets one row's decision, `decideRest` gives every undecided row the same one, `apply` writes the
// import (refused, with the reason in `refusal`, while a row is undecided) and `cancel` closes it writing nothing.
import { CONFLICT_DECISIONS } from '../core/labels/merge';
import type { ConflictTableRow } from '../core/labels/importTable';
import { array, count, type Infer, message, messages, nullable, oneOf, shapeOf, str } from '../core/guards';

export const LABEL_IMPORT_VIEW_TYPE = 'personaLab.labelImport';

export { DECISION_TEXT } from '../core/labels/importTable';
export { CONFLICT_DECISIONS };
export type { ConflictSideLabel, ConflictTableRow } from '../core/labels/importTable';

export interface LabelImportModel {
  /** The file being imported. */
  file: string;
  /** What the import holds: "4 label(s) read, 1 line(s) skipped (…), 2 new, 0 already present, 3 conflict(s)". */
  summary: string;
  /** Labels of targets the database does not have yet: added as they are when the import is applied. */
  additions: number;
  rows: ConflictTableRow[];
  decided: number;
  /** Why the last Apply was refused; null when it was not (or a decision came since). */
  refusal: string | null;
}

const labelImportModel = shapeOf<LabelImportModel>()({
  file: str,
  summary: str,
  additions: count,
  rows: array,
  decided: count,
  refusal: nullable(str),
});

export const isExtensionToWebview = messages(message('show', { model: labelImportModel }));
export type ExtensionToWebview = Infer<typeof isExtensionToWebview>;

const decision = oneOf(CONFLICT_DECISIONS);

export const isWebviewToExtension = messages(
  message('ready'),
  message('decide', { id: str, decision }),
  message('decideRest', { decision }),
  message('apply'),
  message('cancel'),
);
export type WebviewToExtension = Infer<typeof isWebviewToExtension>;
