// What a labelling project needs of a benchmark (projects.ts): its items (a step, a test action) in the runs chosen,
// the item its view shows, and how to open one. Each format's label part offers one (labels/<format>/project.ts);
// the queue itself is the same.
import { isRecord } from '../../core/guards';
import type { ItemKind, ProjectItem } from '../../core/labels/server/projectItems';

export interface ProjectSource {
  readonly itemKind: ItemKind;
  /** The benchmark's name in messages. */
  readonly title: string;
  /** Where its items show: "step view", "trace view". */
  readonly view: string;
  /** The open benchmark's id in the label store; undefined while none is open. */
  benchmark(): string | undefined;
  /** Its view (step view, trace view) is the active editor. */
  viewActive(): boolean;
  runNames(): string[];
  selectedRun(): string | undefined;
  /** The items of `runs`, in order; undefined when the person stepped back from a question. */
  items(runs: string[]): Promise<string[] | undefined>;
  /** The item the view shows: the one `.` was pressed on (a ref with its run), else the view's own. */
  shownItem(arg: unknown): string | undefined;
  /** Opens an item of this benchmark (false: the item is of another kind). */
  open(item: ProjectItem): Promise<boolean>;
}

/** The run a command argument names (a ref with its run, as `.` in a view sends it). */
export const argRun = (arg: unknown): string | undefined =>
  isRecord(arg) && typeof arg.run === 'string' ? arg.run : undefined;
