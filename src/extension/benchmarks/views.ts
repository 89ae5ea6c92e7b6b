// The item views the extension has, which a format's parts of the generic features open items in (each part takes
// the one its format shows items in). Apart from contribution.ts so that the parts import it without a cycle.
import type { StepViews } from './spb/stepView/views';
import type { TracePanel } from './omni/traceView/panel';

export interface FeatureViews {
  readonly steps?: StepViews;
  readonly trace?: TracePanel;
}
