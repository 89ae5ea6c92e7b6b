// The peak resident set of the process image that asks, for the bench's measured processes. Not getrusage's maxRSS:
// a process Node spawns starts as a copy of its parent (libuv forks, then execs), and Linux counts the parent's
// resident pages in the child's maxRSS, so every child of a bench that held a loaded benchmark reported at least the
// bench's own size (the Python peer's 77 MiB job read as 159 MiB, and ours with it). VmHWM in /proc/self/status is
// the image's own peak. The CLI's launcher replaces its first image (src/cli/launch.ts), whose peak is Node's idle
// one, below the job's. Where there is no /proc, maxRSS, with that caveat.

import { readFileSync } from 'node:fs';

/** The peak, as a JavaScript expression for a probe or `node -e`. */
export const PEAK_RSS_JS =
  "(() => { try { const m = /VmHWM:\\s+(\\d+) kB/.exec(require('fs').readFileSync('/proc/self/status', 'utf8')); " +
  'if (m) return Number(m[1]) * 1024; } catch {} return process.resourceUsage().maxRSS * 1024; })()';

/** The same in Python, as lines defining `_peak_rss()`. */
export const PEAK_RSS_PY = [
  'def _peak_rss():',
  '    try:',
  "        for line in open('/proc/self/status'):",
  "            if line.startswith('VmHWM:'):",
  '                return int(line.split()[1]) * 1024',
  '    except OSError:',
  '        pass',
  '    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024',
];

/** This process image's peak resident set, in bytes (what PEAK_RSS_JS computes in another process). */
export function peakRssBytes(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // no /proc: maxRSS below
  }
  return process.resourceUsage().maxRSS * 1024;
}
