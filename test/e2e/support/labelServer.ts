// For labelServer.test.ts: the test's own PostgreSQL cluster (scripts/pg-cluster.mjs, so that the test can stop and
// start it), whether the test can run at all (skipped without PostgreSQL's binaries, a failure instead when
// PERSONA_LAB_REQUIRE_PG=1, as in CI), and a labelling project's items as the step view names them.
import type { Frame } from 'playwright-core';
import { parseItem } from '../../../src/core/labels/server/projectItems';
import type { LabelRow } from '../../../src/core/labels/model';
import { findPgBin, installHint } from '../../../scripts/pg-cluster.mjs';
import { waitFor } from './wait';

/** Why the label server e2e cannot run here (undefined: it can); throws when PERSONA_LAB_REQUIRE_PG=1 says it must. */
export function pgSkipReason(): string | undefined {
  if (findPgBin()) return undefined;
  const reason = 'no PostgreSQL server binaries (initdb, pg_ctl) were found';
  if (process.env.PERSONA_LAB_REQUIRE_PG === '1')
    throw new Error(`PERSONA_LAB_REQUIRE_PG=1 but ${reason}; ${installHint()}`);
  return reason;
}

/** A project item (one step of one run) as the step view's data-step names it: platform/userId/stepId. */
export function stepOfItem(item: string): string {
  const at = parseItem(item);
  if (at?.kind !== 'step') throw new Error(`not a step item: ${item}`);
  return `${at.ref.platform}/${at.ref.userId}/${at.ref.stepId}`;
}

/** A whole-step label on a project item, as another annotator's window would send it. */
export function labelOnItem(item: string, author: string, label: string): LabelRow {
  const at = parseItem(item);
  if (at?.kind !== 'step') throw new Error(`not a step item: ${item}`);
  return {
    benchmark: 'sample',
    platform: at.ref.platform,
    userId: at.ref.userId,
    stepId: at.ref.stepId,
    run: at.run,
    author,
    target: { kind: 'step' },
    label,
    note: '',
    createdAt: new Date().toISOString(),
    contentHash: '',
  };
}

/** "author step label" of a row, to compare sets of labels. */
export const labelKey = (r: Pick<LabelRow, 'author' | 'platform' | 'userId' | 'stepId' | 'label'>): string =>
  `${r.author} ${r.platform}/${r.userId}/${r.stepId} ${r.label}`;

/** The step the step view `frame` shows once its labels bar is there (data-step), or '' while there is none. */
export async function shownStep(frame: Frame): Promise<string> {
  const root = frame.locator('#step-root');
  const step = (await root.getAttribute('data-step').catch(() => null)) ?? '';
  return step && (await root.locator('.labels-bar').count()) > 0 ? step : '';
}

/** The step `frame` shows once it is another than `before` (what a queue's `.` opened). */
export function nextShownStep(frame: Frame, before: string, who: string): Promise<string> {
  return waitFor(
    async () => {
      const s = await shownStep(frame);
      return s && s !== before ? s : undefined;
    },
    { timeout: 30_000, message: `${who}'s step view to open the next assigned step (after ${before || 'none'})` },
  );
}

/** Waits until the chip of `labelId` in `frame`'s labels bar is pressed (`on`) or not. */
export function chipPressed(frame: Frame, labelId: string, on = true): Promise<boolean> {
  const chip = frame.locator(`.labels-bar .label-chip[data-label-id="${labelId}"]`);
  return waitFor(async () => (await chip.getAttribute('aria-pressed').catch(() => null)) === String(on), {
    message: `the ${labelId} chip to be ${on ? 'on' : 'off'}`,
  });
}
