// A step of one user of the open StreamProfileBench benchmark: what the step view, the tree, the compare view's
// decorations and the re-run commands point at. Its own module, so that the tree and the decorations do not import
// the store (which builds the tree's roots).
import type { Platform } from '../../../core/spb/types';

export interface StepRef {
  platform: Platform;
  userId: string;
  stepId: number;
}
