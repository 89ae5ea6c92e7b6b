// Formatting helpers of the dashboard and compare pages; the DOM builders are the shared ones (text only).
import { pointsText, pyFixed } from '../../../src/core/io/pyNumber';
import type { DashboardModel } from '../../../src/shared/spb/dashboardProtocol';

export { el, help, icon, type Child } from '../../shared/dom';

/** Percentage with one or two decimals; "—" for undefined. */
export function pct(x: number | null | undefined, digits = 2): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : pyFixed(100 * x, digits);
}

/** Signed difference in percentage points: "+12.5", "−3.0", "0.0". */
export const pts = pointsText;

export function fixed(x: number | null | undefined, digits = 2): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : pyFixed(x, digits);
}

/** A run as a legend names it: with what its figures cover when that is part of the benchmark, so a saved chart says so. */
export function runLegend(m: DashboardModel, run: string): string {
  return m.coverage[run] ? `${run} (${m.coverage[run]})` : run;
}
