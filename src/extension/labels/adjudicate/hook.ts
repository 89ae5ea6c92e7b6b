// What a view's labels controller asks of the adjudication pass (LabelService.adjudication): the section on the unit
// it shows, and a decision made from its page; and the argument that starts it on the Disagreements list. A file
// apart, so that the service and the agreement view name them without importing the pass (which imports the service).
import type { AdjudicationSection } from '../../../core/labels/adjudication';
import type { StepRef } from '../../../core/labels/model';
import type { LabelDef } from '../../../core/labels/taxonomy';
import type { AdjudicateAction } from '../../../shared/labelProtocol';

/** The argument of Adjudicate Labels… that walks the Disagreements list without asking (the agreement view's button). */
export const DISAGREEMENTS_SCOPE = 'disagreements';

export interface AdjudicationHook {
  /** The section on `unit`, or null when no pass is on or the unit is not one of its units. */
  section(unit: StepRef | undefined): AdjudicationSection | null;
  /** Carries out a decision made on a page; `labelSet` is the labels its view offers (for setting them directly). */
  act(action: AdjudicateAction, labelSet: readonly LabelDef[]): Promise<void>;
}
