// Where the pass writes gold rows: the label database file's GoldStore (the adjudicator is the author name), or the
// label server's gold store (the adjudicator is the session's role, which the server requires to be an adjudicator).
import type { Adjudication } from '../../../core/labels/gold';
import { GoldStore } from '../../../core/labels/goldStore';
import type { StepRef } from '../../../core/labels/model';
import { ServerGoldStore } from '../../../core/labels/server/goldStore';
import { ServerLabelStore } from '../../../core/labels/server/store';

export interface GoldBackend {
  adjudications(benchmark?: string): Promise<Adjudication[]>;
  decide(ref: StepRef, labels: readonly string[], adjudicator: string): Promise<void>;
  /** Reverts the unit's latest decision; false when it had none. */
  undo(ref: StepRef, by: string): Promise<boolean>;
  close(): void;
}

export function fileGold(path: string): GoldBackend {
  let store: GoldStore | undefined;
  const open = () => (store ??= GoldStore.open(path));
  return {
    adjudications: (benchmark) => Promise.resolve(open().adjudications(benchmark === undefined ? {} : { benchmark })),
    decide: (ref, labels, adjudicator) => {
      open().decide({ ref, labels, adjudicator });
      return Promise.resolve();
    },
    undo: (ref, by) => Promise.resolve(open().undo(ref, by) !== undefined),
    close: () => store?.close(),
  };
}

export function serverGold(url: string, password: () => Thenable<string | undefined>): GoldBackend {
  let server: Promise<ServerLabelStore> | undefined;
  const open = async () => {
    server ??= (async () => ServerLabelStore.open(url, { password: (await password()) || undefined, max: 2 }))();
    try {
      return new ServerGoldStore(await server);
    } catch (err) {
      server = undefined;
      throw err;
    }
  };
  return {
    adjudications: async (benchmark) => (await open()).adjudications(benchmark === undefined ? {} : { benchmark }),
    decide: async (ref, labels) => void (await (await open()).decide({ ref, labels })),
    undo: async (ref) => (await (await open()).undo(ref)) !== undefined,
    close: () => void server?.then((s) => s.close()).catch(() => undefined),
  };
}
