// Where the gold views read the adjudicators' decisions (src/extension/labels/gold/decisionSource.ts): with a label
// server, from the server (the replica has none), in the background: "reading" until its first answer (never "none"),
// then the last read, a read that finds them changed tells the views once, one that finds the same does not, and a
// failure is given as its reason. The server is read on label changes only while a view that shows gold follows.
import { describe, expect, it } from 'vitest';
import type { Adjudication } from '../../src/core/labels/gold';
import type { GoldBackend } from '../../src/extension/labels/adjudicate/goldBackend';
import { DecisionSource, followWhileShown } from '../../src/extension/labels/gold/decisionSource';

const decision = (benchmark: string, stepId: number): Adjudication => ({
  ref: { benchmark, platform: 'weibo', userId: 'u1', stepId, run: 'r' },
  labels: ['a'],
  adjudicator: 'judy',
  createdAt: '2026-12-07T00:00:00.000Z',
});

/** A source over a fake server whose answers the test sets; `reads` counts the server's reads. */
function fixture(server = 'postgres://team@127.0.0.1/labels') {
  const f = {
    onServer: [decision('sample', 1), decision('omnibehavior', 2)] as Adjudication[] | Error,
    reads: 0,
    changed: 0,
    source: undefined as unknown as DecisionSource,
  };
  const backend: GoldBackend = {
    adjudications: () => {
      f.reads++;
      return f.onServer instanceof Error ? Promise.reject(f.onServer) : Promise.resolve(f.onServer);
    },
    decide: () => Promise.resolve(),
    undo: () => Promise.resolve(false),
    close: () => undefined,
  };
  f.source = new DecisionSource(
    () => ({ file: '/nowhere/labels.db', server }),
    () => Promise.resolve(undefined),
    () => f.changed++,
    () => backend,
  );
  return f;
}

/** Waits for the reads begun so far, beginning none. */
const settle = (f: ReturnType<typeof fixture>) => f.source.settled();

describe('DecisionSource with a label server', () => {
  it("says 'reading' before the server's first answer, then gives its decisions", async () => {
    const f = fixture();
    expect(f.source.fromServer).toBe(true);
    expect(f.source.read()).toEqual({ reading: true });
    expect(f.source.read('sample')).toEqual({ reading: true });
    // The first ask began one read; asking again while it runs begins none.
    expect(f.reads).toBe(1);
    await settle(f);
    expect(f.changed).toBe(1);
    expect(f.source.read('sample')).toEqual({ adjudications: [decision('sample', 1)] });
    expect(f.source.read()).toEqual({ adjudications: f.onServer });
  });

  it('gives a failed read as its reason, and stays so until a read succeeds', async () => {
    const f = fixture();
    f.onServer = new Error('password authentication failed');
    await f.source.refresh();
    expect(f.source.read()).toEqual({ error: 'password authentication failed' });
    expect(f.source.read('sample')).toEqual({ error: 'password authentication failed' });
    f.onServer = [decision('sample', 3)];
    await f.source.refresh();
    expect(f.source.read('sample')).toEqual({ adjudications: [decision('sample', 3)] });
    expect(f.changed).toBe(2);
  });

  it('tells the views only when the decisions changed, and coalesces asks made during a read', async () => {
    const f = fixture();
    await f.source.refresh();
    expect([f.reads, f.changed]).toEqual([1, 1]);
    await Promise.all([f.source.refresh(), f.source.refresh(), f.source.refresh()]);
    expect([f.reads, f.changed]).toEqual([3, 1]);
    f.onServer = [decision('sample', 1), decision('sample', 3)];
    await f.source.refresh();
    expect(f.changed).toBe(2);
  });

  it('reads the server on label changes only while a view that shows gold follows', async () => {
    const f = fixture();
    // Nobody shows gold: label changes cost the server nothing.
    f.source.labelsChanged();
    f.source.labelsChanged();
    expect(f.reads).toBe(0);
    // A view that starts following makes one read; then each label change reads again.
    const dashboard = f.source.follow();
    expect([f.source.following, f.reads]).toEqual([1, 1]);
    await settle(f);
    f.source.labelsChanged();
    await settle(f);
    expect(f.reads).toBe(2);
    const agreement = f.source.follow();
    await settle(f);
    expect([f.source.following, f.reads]).toEqual([2, 3]);
    f.source.labelsChanged();
    await settle(f);
    expect(f.reads).toBe(4);
    // Disposing a handle twice counts once; with one follower left label changes still read.
    dashboard.dispose();
    dashboard.dispose();
    expect(f.source.following).toBe(1);
    f.source.labelsChanged();
    await settle(f);
    expect(f.reads).toBe(5);
    agreement.dispose();
    expect(f.source.following).toBe(0);
    f.source.labelsChanged();
    await settle(f);
    expect(f.reads).toBe(5);
  });

  it('does not read again for the change event its own answer causes', async () => {
    // The service fires its change event from `changed`, which calls labelsChanged back.
    let reads = 0;
    const backend: GoldBackend = {
      // Each of the first two reads differs from the one before (each would tell the views again).
      adjudications: () => (reads++, Promise.resolve([decision('sample', Math.min(reads, 2))])),
      decide: () => Promise.resolve(),
      undo: () => Promise.resolve(false),
      close: () => undefined,
    };
    const source: DecisionSource = new DecisionSource(
      () => ({ file: '/nowhere/labels.db', server: 'postgres://h/labels' }),
      () => Promise.resolve(undefined),
      () => source.labelsChanged(),
      () => backend,
    );
    const view = source.follow();
    await source.settled();
    expect(reads).toBe(1);
    // A change from elsewhere reads once more, and its answer (changed again) sets off no third read.
    source.labelsChanged();
    await source.settled();
    expect(reads).toBe(2);
    view.dispose();
  });

  it('follows while a panel shows, and stops when it hides, closes or its feed goes', async () => {
    const f = fixture();
    const listeners: ((shown: boolean) => void)[] = [];
    const shown = (l: (shown: boolean) => void) => {
      listeners.push(l);
      return { dispose: () => listeners.splice(listeners.indexOf(l), 1) };
    };
    const fire = (v: boolean) => listeners.forEach((l) => l(v));
    const feed = followWhileShown(f.source, shown);
    expect(f.source.following).toBe(0);
    fire(true);
    fire(true); // a view-state change that keeps it visible follows once
    expect([f.source.following, f.reads]).toEqual([1, 1]);
    fire(false);
    expect(f.source.following).toBe(0);
    fire(true);
    expect(f.source.following).toBe(1);
    feed.dispose();
    expect([f.source.following, listeners.length]).toEqual([0, 0]);
    await settle(f);
  });
});

describe('DecisionSource with the embedded file', () => {
  it('reads the file at once (none before it exists), and never a server', () => {
    let opened = 0;
    const source = new DecisionSource(
      () => ({ file: '/nowhere/labels.db', server: '' }),
      () => Promise.resolve(undefined),
      () => undefined,
      () => {
        opened++;
        throw new Error('no server here');
      },
    );
    expect(source.fromServer).toBe(false);
    expect(source.read()).toEqual({ adjudications: [] });
    const view = source.follow();
    source.labelsChanged();
    view.dispose();
    expect(opened).toBe(0);
  });
});
