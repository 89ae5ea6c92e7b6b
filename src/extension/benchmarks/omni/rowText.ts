// The OmniBehavior benchmark row's description. No vscode import, so it is unit-tested.
import { pyFixed } from '../../../core/io/pyNumber';

/**
 * The OmniBehavior row's description, figure first as the StreamProfileBench row's: "overall 61.2 · run: demo-sim ·
 * OmniBehavior", the figure's coverage after it when the run is of part of the benchmark ("overall — over 1 of 6
 * users"), then the users' order when it is not the file's.
 */
export function omniRowDescription(
  run: string | undefined,
  overall: number | undefined,
  order?: string,
  coverage?: string,
): string {
  // As the dashboard, the tooltip and the CLI print it (Python's rounding: 61.25 is 61.2, not toFixed's 61.3).
  const value = overall === undefined ? '—' : pyFixed(overall, 1);
  const figure = run === undefined ? 'no run' : `overall ${value}${coverage ? ` ${coverage}` : ''} · run: ${run}`;
  return [figure, 'OmniBehavior', order].filter(Boolean).join(' · ');
}
