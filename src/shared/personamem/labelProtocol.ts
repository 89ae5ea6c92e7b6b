// The PersonaMem question view's labels bar messages (the shared labels bar protocol, src/shared/labelProtocol.ts):
// a label goes on the whole question shown, in the run it shows (run '' without one of its split).
import { object, shapeOf, str, tagged, variants, type Infer } from '../../core/guards';
import {
  type LabelBarState,
  labelAdjudicate,
  labelBarShape,
  labelMessage,
  labelNextUnlabelled,
  labelSetNote,
  labelsMessage,
  labelToggle,
  labelUndo,
} from '../labelProtocol';

const questionLabelRef = object({ split: str, questionId: str });

/** What a question's label sits on: the question itself (its only target). */
const questionTarget = tagged('kind', 'step');
export type QuestionLabelTarget = Infer<typeof questionTarget>;

/** Labelling actions of the question view: toggle, note, undo, next unlabelled, and the adjudication pass's. */
const questionLabelAction = variants(
  'kind',
  labelToggle(questionLabelRef, questionTarget),
  labelSetNote(questionLabelRef, questionTarget),
  labelUndo,
  labelNextUnlabelled(questionLabelRef),
  labelAdjudicate,
);
export type QuestionLabelAction = Infer<typeof questionLabelAction>;

export type QuestionLabelState = LabelBarState<Infer<typeof questionLabelRef>>;

const questionLabelState = shapeOf<QuestionLabelState>()(labelBarShape(questionLabelRef));

/** extension → webview: the labels bar of the question `state.ref`. */
export const questionLabelsMessage = labelsMessage(questionLabelState);
/** webview → extension: a labelling action. */
export const questionLabelActionMessage = labelMessage(questionLabelAction);
