// The CLI exits only once its output has reached a reader that is slow to read: a full pipe queues the rest of a
// write, and exiting at once would cut an export short. `npm run test:slow` builds dist/ first.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { LabelStore } from '../../src/core/labels/store';

it('labels export writes every row into a pipe that is not read until later', async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'pl-flush-')), 'labels.db');
  const store = LabelStore.open(db);
  const count = 3000;
  for (let stepId = 1; stepId <= count; stepId++) {
    store.add({
      benchmark: 'flush',
      platform: 'weibo',
      userId: 'we_00000000aa',
      stepId,
      run: 'r',
      author: 'a',
      target: { kind: 'step' },
      label: 'decay-error',
      note: 'n'.repeat(40),
      contentHash: 'a'.repeat(64),
    });
  }
  store.close();
  const child = spawn(process.execPath, [resolve(__dirname, '../../dist/cli.js'), 'labels', 'export', db], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pause();
  // Hold the pipe full (far more than its 64 KiB is written) until the CLI has had every chance to exit early.
  await new Promise((r) => setTimeout(r, 800));
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stdout.resume();
  const code = await new Promise<number | null>((r) => child.on('close', r));
  expect(code).toBe(0);
  const lines = out.trim().split('\n');
  expect(lines).toHaveLength(count);
  expect(JSON.parse(lines[count - 1]).step_id).toBe(count);
});
