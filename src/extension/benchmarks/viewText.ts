// Texts of the Benchmarks view that need no vscode: its description (which run its figures are for, or what is
// loading) and the benchmark row's name, kept short so that the figures after it stay in sight.

/** What the view's description reads of one open benchmark. */
export interface OpenState {
  /** The format's name, as the view shows it. */
  label: string;
  loaded: boolean;
  loading: boolean;
  /** The selected run, when a benchmark is loaded. */
  run: string | undefined;
}

/**
 * "loading <format>…" while any benchmark loads; else "run: demo-llm" for one open benchmark, "runs: random ·
 * demo-sim" for two (in the view's order); '' when none is open (the view's welcome says so).
 */
export function benchmarksViewDescription(open: readonly OpenState[]): string {
  const loading = open.filter((b) => b.loading).map((b) => b.label);
  if (loading.length) return `loading ${loading.join(' and ')}…`;
  const runs = open.filter((b) => b.loaded).map((b) => b.run ?? 'no run');
  if (runs.length === 0) return '';
  return `${runs.length === 1 ? 'run' : 'runs'}: ${runs.join(' · ')}`;
}

const MAX_NAME = 14;
/** The end a generated folder name (mkdtemp's random characters) keeps after the ellipsis. */
const TAIL = 4;

/**
 * A folder name of at most 14 characters for the benchmark row, so that the figure after it stays in sight at the side
 * bar's default width even when the name's letters are wide (at 16, a tail such as "mHMT" pushed the "%" of "Avg. R
 * 27.0%" out of sight): a longer one keeps its start up to a word break and its last four characters
 * ("persona-lab-walkthrough-g1hUdX" → "persona…hUdX"); the tooltip has the full path.
 */
export function rowName(folder: string): string {
  if (folder.length <= MAX_NAME) return folder;
  const room = MAX_NAME - TAIL - 1;
  // One character more than there is room for: a word break right after the room keeps the word before it whole.
  const head = folder.slice(0, room + 1);
  const cut = head.search(/[-_. ][^-_. ]*$/);
  const start = (cut >= 4 ? head.slice(0, cut) : head.slice(0, room)).replace(/[-_. ]+$/, '');
  return `${start}…${folder.slice(-TAIL)}`;
}
