// OmniBehavior's labels: the `platform` every trace label carries and the default label set, `traceLabels` in
// labels.json.
import { piLeakLabel, type FormatLabelSet, type LabelDef } from '../../labels/labelDefs';

/** The `platform` column of every trace label: traces have no platform, and the value keeps them apart. */
export const TRACE_PLATFORM = 'omnibehavior';

/**
 * The default failure modes of a trace's prediction (a test action, or one record of the history before it),
 * after the paper's diagnostics: simulators that act far more often than users and answer alike for everyone.
 */
export const DEFAULT_TRACE_LABELS: readonly LabelDef[] = [
  {
    id: 'hyper-activity',
    name: 'Hyper-activity',
    description: 'Predicted an action (Yes) that the user did not take.',
    key: '1',
    scope: 'step',
  },
  {
    id: 'missed-action',
    name: 'Missed action',
    description: 'Predicted No where the user acted.',
    key: '2',
    scope: 'step',
  },
  {
    id: 'homogenised',
    name: 'Homogenised',
    description: "Ignores this user's own habits: any user would get the same answer.",
    key: '3',
    scope: 'step',
  },
  {
    id: 'history-misread',
    name: 'History misread',
    description: 'Misreads or ignores the history before the test action.',
    key: '4',
    scope: 'step',
  },
  {
    id: 'context-misread',
    name: 'Context misread',
    description: 'Misreads the scene context (video, live room, item, ad).',
    key: '5',
    scope: 'step',
  },
  {
    id: 'watch-time-off',
    name: 'Watch time off',
    description: "Far from the video's duration or the user's usual watching.",
    key: '6',
    scope: 'step',
  },
  {
    id: 'utterance-off',
    name: 'Utterance off',
    description: 'The predicted customer-service message is off in intent or tone.',
    key: '7',
    scope: 'step',
  },
  {
    id: 'format-error',
    name: 'Format error',
    description: 'No usable answer in the raw output (not Yes / No, not a number).',
    key: '8',
    scope: 'step',
  },
  piLeakLabel('step'),
  {
    id: 'bad-ground-truth',
    name: 'Bad ground truth',
    description: 'The record or the true value itself is wrong.',
    key: '0',
    scope: 'step',
  },
];

export const TRACE_LABEL_SET: FormatLabelSet = { key: 'traceLabels', defaults: DEFAULT_TRACE_LABELS };
