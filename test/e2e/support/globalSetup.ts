// The e2e run's global setup (vitest.e2e.config.mts): the test process registers the run folder of its shared
// code-server (shared.ts) in a folder made here; at the end of the run every process started with that run folder
// in its environment (code-server, its extension hosts, Chromium) is ended and the folder deleted, even when the
// test process was ended before its own exit hook ran.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SHARED_REGISTRY = 'PERSONA_LAB_E2E_SHARED_REGISTRY';

export default function setup(): () => void {
  const registry = mkdtempSync(join(tmpdir(), 'persona-lab-e2e-registry-'));
  process.env[SHARED_REGISTRY] = registry;
  return () => {
    for (const name of readdirSync(registry)) {
      const runDir = readFileSync(join(registry, name), 'utf8').trim();
      for (const pid of processesWith(runDir)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // it exited meanwhile
        }
      }
      if (process.env.PERSONA_LAB_E2E_KEEP !== '1') rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
    }
    rmSync(registry, { recursive: true, force: true });
  };
}

/** Ids of the processes whose environment names `runDir` (HOME and TMPDIR are under it). */
export function processesWith(runDir: string, cmdline?: string): number[] {
  if (!runDir || !existsSync('/proc')) return [];
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === process.pid) continue;
    try {
      if (cmdline && !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(cmdline)) continue;
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').includes(runDir)) out.push(Number(pid));
    } catch {
      // the process ended, or is not ours to read
    }
  }
  return out;
}
