// Compare Runs: one part per format whose contribution offers one (part.ts), each with its own view. The command
// picks run A among the runs of every open benchmark that has a part, then run B of the same benchmark, and hands
// the pair to that benchmark's part; with two run names (from an experiment) it goes to the benchmark that has both.
import * as vscode from 'vscode';
import { object, str } from '../../core/guards';
import type { Benchmarks } from '../benchmarks';
import type { OpenBenchmark } from '../benchmarks/types';
import { log } from '../log';
import { activateCompareMode } from './mode';
import type { ComparePart, RunPair } from './part';
import { pickRunPair, type Comparable } from './pick';

/** Whether an open benchmark offers Compare Runs (its button in the Benchmarks view's title). */
const ANY_KEY = 'personaLab.hasCompare';

const runPairArg = object({ a: str, b: str });

function pairFromArgs(a: unknown, b: unknown): RunPair | undefined {
  if (typeof a === 'string' && typeof b === 'string' && a !== b) return { a, b };
  if (runPairArg(a) && a.a !== a.b) return { a: a.a, b: a.b };
  return undefined;
}

export interface CompareCommands {
  compareRuns(a: unknown, b: unknown): Promise<void>;
  /** The part of a format id; undefined when its contribution offers none. */
  of(formatId: string): ComparePart | undefined;
  /** Compare mode on (a pair picked first when none is compared) or off (mode.ts). */
  setMode(on: boolean): Promise<void>;
}

export function activateCompare(context: vscode.ExtensionContext, benchmarks: Benchmarks): CompareCommands {
  const host = { extensionUri: context.extensionUri, state: context.workspaceState };
  const parts = new Map<string, ComparePart>();
  for (const c of benchmarks.contributions) {
    const part = c.compare?.(benchmarks.of(c), host);
    if (!part) continue;
    parts.set(c.format.id, part);
    context.subscriptions.push(part);
  }
  const open = (): Comparable[] =>
    benchmarks.all.flatMap((b: OpenBenchmark) => {
      const part = parts.get(b.format.id);
      return b.bench && part ? [{ label: b.format.label, part }] : [];
    });
  const publish = () => void vscode.commands.executeCommand('setContext', ANY_KEY, open().length > 0);
  for (const b of benchmarks.all) context.subscriptions.push(b.onDidChange(publish));
  publish();
  const mode = activateCompareMode(context, benchmarks, parts);

  return {
    of: (id) => parts.get(id),
    setMode: (on) => mode.setMode(on),
    compareRuns: async (a, b) => {
      const given = pairFromArgs(a, b);
      const has = (o: Comparable, run: string) => o.part.runs().some((r) => r.run === run);
      const owner = given && open().find((o) => has(o, given.a) && has(o, given.b));
      if (!owner && open().length === 0) {
        const offering = benchmarks.contributions.filter((c) => c.compare).map((c) => c.format.label);
        void vscode.window.showInformationMessage(
          `Persona Lab: no open benchmark offers Compare Runs (${offering.join(', ') || 'none of this build'}).`,
        );
        return;
      }
      const chosen = given && owner ? { owner, pair: given } : await pickRunPair(open());
      if (!chosen) return;
      const problem = chosen.owner.part.problem?.(chosen.pair);
      if (problem) {
        void vscode.window.showWarningMessage(`Persona Lab: ${problem}.`);
        return;
      }
      log.info(`compare: ${chosen.owner.label}: ${chosen.pair.a} vs ${chosen.pair.b}`);
      await chosen.owner.part.show(chosen.pair);
    },
  };
}
