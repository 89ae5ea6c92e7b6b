// The registry: the list of benchmark formats both shells serve. Each format is a descriptor in its own folder
// (descriptor.ts says what one holds); adding a format is one line in FORMATS.
import { omniBehavior } from '../omni/format';
import { personaMem } from '../personamem/format';
import { streamProfileBench } from '../spb/format/format';
import type { FormatLabelSet } from '../labels/labelDefs';
import type { Format } from './descriptor';

export type { Format, FormatLoadOptions, Loaded, OpenedBenchmark } from './descriptor';
export { omniBehavior, omniRoot } from '../omni/format';
export { streamProfileBench } from '../spb/format/format';

// Order matters for detectFormat: a folder holding both (like sample/, with data/ and omnibehavior/) opens as
// StreamProfileBench, the format Persona Lab served first; detectFormats lists both.
const BUILT_IN: readonly Format[] = [streamProfileBench, omniBehavior, personaMem];

const registered: Format[] = [...BUILT_IN];

/** Every format, built-in ones first. */
export const FORMATS: readonly Format[] = registered;

/**
 * Adds a format after the built-in ones. Only tests call it (test/fixtures/tinybench registers a third format this
 * way); a shipped format is a line in BUILT_IN. The same format again is a no-op; another with a taken id is refused.
 */
export function registerFormat(format: Format): void {
  const taken = registered.find((f) => f.id === format.id);
  if (taken === format) return;
  if (taken) throw new Error(`format "${format.id}" is already registered`);
  registered.push(format);
}

/** The label sets the formats add to labels.json (beside its `labels` and `traceLabels`). */
export function formatLabelSets(formats: readonly Format[] = registered): FormatLabelSet[] {
  return formats.flatMap((f) => (f.labelSet ? [f.labelSet] : []));
}

export function formatById(id: string): Format | undefined {
  return registered.find((f) => f.id === id);
}

export function detectFormat(target: string): Format | undefined {
  return registered.find((f) => f.detect(target));
}

/** Every format the target holds, in FORMATS order. */
export function detectFormats(target: string): Format[] {
  return registered.filter((f) => f.detect(target));
}
