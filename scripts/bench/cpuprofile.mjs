// Where a V8 CPU profile's time goes: per time bucket, the milliseconds spent in each part of a cold open (the load,
// the index writes, scoring, the tree, module loading, the collector, idle), or, with --window FROM TO, the functions
// that took the most time between FROM and TO ms after the profile's start. Made for the extension host's profile of
// the workbench's cold open (docs/performance.md, "Profiling the extension host"); any .cpuprofile reads.
//
//   node scripts/bench/cpuprofile.mjs PROFILE [--bucket MS]
//   node scripts/bench/cpuprofile.mjs PROFILE --window FROM TO [--top N]
import { readFileSync } from 'node:fs';

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/bench/cpuprofile.mjs PROFILE [--bucket MS | --window FROM TO [--top N]]');
  process.exit(2);
}
const opt = (name, fallback) => {
  const i = rest.indexOf(name);
  return i < 0 ? fallback : Number(rest[i + 1]);
};
const profile = JSON.parse(readFileSync(file, 'utf8'));
const node = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const stack = (id) => {
  const out = [];
  for (let c = id; c !== undefined; c = parent.get(c)) out.push(node.get(c).callFrame);
  return out;
};
const key = (f) => `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;

// The first part whose functions are on the stack names the sample; names are the bundle's (esbuild keeps them).
const PARTS = [
  ['index-write', /^(encodeResults|encodePickRows|encodeUsers|writeLater|one)$/],
  ['load', /^(readRegions|loadBenchmark|readTasksFile|readResultsFile|readTasksIndexed|readResultsIndexed|discover)$/],
  ['score', /^(scoreRun|failedRequests|runMemory)$/],
  ['tree', /^(getTreeItem|getChildren)$/],
  ['module-load', /^(wrapModuleLoad|compileSourceTextModule|loadAndTranslate)$/],
  ['gc', /^\(garbage collector\)$/],
  ['idle', /^\(idle\)$/],
];
const partOf = (frames) => {
  for (const [part, re] of PARTS) if (frames.some((f) => re.test(f.functionName))) return part;
  return frames.some((f) => f.url.endsWith('dist/extension.js')) ? 'extension, other' : 'other';
};

// timeDeltas[i] is the time before sample i; the sample stands for the time until the next one.
const samples = [];
let t = 0;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i] / 1000;
  samples.push({ at: t, id: profile.samples[i], ms: (profile.timeDeltas[i + 1] ?? 0) / 1000 });
}
const fmt = (m) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(', ');

if (rest.includes('--window')) {
  const i = rest.indexOf('--window');
  const [from, to] = [Number(rest[i + 1]), Number(rest[i + 2])];
  const inclusive = new Map();
  for (const s of samples) {
    if (s.at < from || s.at >= to) continue;
    for (const k of new Set(stack(s.id).map(key))) inclusive.set(k, (inclusive.get(k) ?? 0) + s.ms);
  }
  const top = [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, opt('--top', 40));
  for (const [k, ms] of top) console.log(`${ms.toFixed(0).padStart(7)} ms  ${k}`);
} else {
  const bucket = opt('--bucket', 500);
  const rows = new Map();
  const total = new Map();
  for (const s of samples) {
    const b = Math.floor(s.at / bucket) * bucket;
    const part = partOf(stack(s.id));
    if (!rows.has(b)) rows.set(b, new Map());
    rows.get(b).set(part, (rows.get(b).get(part) ?? 0) + s.ms);
    total.set(part, (total.get(part) ?? 0) + s.ms);
  }
  for (const [b, parts] of rows) console.log(`${String(b).padStart(7)} ms  ${fmt(parts)}`);
  console.log(`  total  ${fmt(total)}`);
}
