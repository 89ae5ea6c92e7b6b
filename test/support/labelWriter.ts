// Child process for the crash and concurrency tests: writes labels one transaction each and prints each step id
// once its transaction has returned.
// Usage: node labelWriter.js DB COUNT FIRST_STEP AUTHOR [BUSY_TIMEOUT_MS] [--wait]
// With --wait it opens the store, prints "ready" and starts writing when a line arrives on stdin, so that two
// writers can be started together. At the end it prints "# retries N" (lock waits of the retry loop).
import { busyStats, LabelStore } from '../../src/core/labels/store';

const [db, countArg, firstArg, author, busyArg, waitFlag] = process.argv.slice(2);
const count = Number(countArg);
const first = Number(firstArg);

function fail(err: unknown): never {
  const code = (err as { code?: unknown }).code;
  process.stderr.write(`ERROR ${String(code ?? '')} ${(err as Error).message}\n`);
  process.exit(1);
}

function write(store: LabelStore): void {
  for (let i = 0; i < count; i++) {
    const stepId = first + i;
    store.add({
      benchmark: 'crash',
      platform: 'weibo',
      userId: 'we_00000000aa',
      stepId,
      run: 'run-1',
      author,
      target: { kind: 'step' },
      label: 'decay-error',
      note: `note ${stepId}`,
      contentHash: 'a'.repeat(64),
    });
    // Pipes are written synchronously on Linux: once this returns the line is the parent's to read.
    process.stdout.write(`${stepId}\n`);
  }
  process.stdout.write(`# retries ${busyStats.retries}\n`);
  store.close();
}

try {
  const store = LabelStore.open(db, { busyTimeoutMs: busyArg === undefined ? 5000 : Number(busyArg) });
  if (waitFlag === '--wait') {
    process.stdout.write('ready\n');
    process.stdin.once('data', () => {
      try {
        write(store);
        process.exit(0);
      } catch (err) {
        fail(err);
      }
    });
  } else {
    write(store);
  }
} catch (err) {
  fail(err);
}
