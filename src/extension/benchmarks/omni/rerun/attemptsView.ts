// The attempts of the test action shown in the trace view, as the page draws them: each answer against the selected
// run's (fixed, broken, moved), posted whenever the view shows a test action, an attempt is added or the run changes.
import {
  compareAttempt,
  OMNI_ATTEMPTS_FILE,
  OmniAttemptStore,
  type OmniAttempt,
} from '../../../../core/omni/run/attempts';
import { binaryLabel } from '../../../../core/omni/fields';
import { predictionKey } from '../../../../core/omni/types';
import type { AttemptView } from '../../../../shared/omni/traceAttempts';
import type { TraceRef } from '../../../../shared/omni/traceProtocol';
import type { OmniStore } from '../store';
import { AttemptFile } from '../../../rerun/attemptFile';

const text = (v: string | number | null): string => (v === null ? '—' : typeof v === 'number' ? String(v) : v);
/** Binary values as the trace view's questions show them: Yes / No, whichever way the file wrote them. */
const shown = (kind: string, v: string | number | null): string => {
  if (kind !== 'binary' || v === null) return text(v);
  const label = binaryLabel(v);
  return label === undefined ? text(v) : label === 1 ? 'Yes' : 'No';
};

export function attemptView(store: OmniStore, a: OmniAttempt): AttemptView {
  const found = store.testAction(a.userId, a.index);
  const original = store.run?.predictions.get(predictionKey(a.userId, a.index));
  const rows = compareAttempt(found?.action ?? { normaliser: undefined }, original, a).map((c, i) => ({
    field: c.field,
    kind: c.kind,
    truth: shown(c.kind, c.trueValue),
    before: c.before ? shown(c.kind, c.before.value) : null,
    after: shown(c.kind, c.after.value),
    change: c.change,
    delta: c.delta === null ? null : Math.round(c.delta * 1000) / 10,
    judge: a.answers[i].judge_score ?? null,
    error: a.answers[i].error ?? null,
  }));
  let host = a.baseURL;
  try {
    host = new URL(a.baseURL).host;
  } catch {
    // keep the text as recorded
  }
  return {
    id: a.id,
    at: a.at,
    label: `${a.source.name} · ${a.model} at ${host}${a.masked ? ' · PI masked' : ''}`,
    edited: a.edited,
    rows,
    fixed: rows.filter((r) => r.change === 'fixed').length,
    broken: rows.filter((r) => r.change === 'broken').length,
  };
}

/** One attempt store per benchmark folder, opened on first use. */
export class Attempts {
  private readonly file: AttemptFile<OmniAttemptStore>;

  constructor(private readonly store: OmniStore) {
    this.file = new AttemptFile(() => store.bench?.root, OMNI_ATTEMPTS_FILE, OmniAttemptStore.open);
  }

  get(): OmniAttemptStore | undefined {
    return this.file.get();
  }

  views(ref: TraceRef): AttemptView[] {
    return (this.get()?.list(ref.userId, ref.index) ?? []).map((a) => attemptView(this.store, a));
  }

  dispose(): void {
    this.file.dispose();
  }
}
