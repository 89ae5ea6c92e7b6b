// Writes small OmniBehavior folders (our layout, src/core/omni/types.ts) to a temp directory, for tests that read
// from disk: trace labels, the trace PI audit and the CLI.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type RawRecord = Record<string, unknown>;

export interface FolderUser {
  id: string;
  profile: string;
  records: RawRecord[];
  /** Pretty-print the file (records span lines), as the sample's u_1004. */
  pretty?: boolean;
}

export interface FolderSpec {
  users: FolderUser[];
  tests: { user_id: string; index: number; fields: string[] }[];
  /** run name -> prediction lines */
  runs?: Record<string, Record<string, unknown>[]>;
}

export function rawText(u: FolderUser): string {
  if (u.pretty)
    return JSON.stringify({ [u.id]: { user_profile: u.profile, action_history: u.records } }, null, 2) + '\n';
  const body = u.records.map((r) => JSON.stringify(r)).join(',\n');
  return `{"${u.id}": {"user_profile": ${JSON.stringify(u.profile)}, "action_history": [\n${body}\n]}}\n`;
}

/** Writes (or rewrites) the folder's files; returns the root. */
export function writeOmniFolder(spec: FolderSpec, root = mkdtempSync(join(tmpdir(), 'pl-omni-'))): string {
  mkdirSync(join(root, 'raw'), { recursive: true });
  for (const u of spec.users) writeFileSync(join(root, 'raw', `${u.id}.json`), rawText(u));
  writeFileSync(join(root, 'test_actions.jsonl'), spec.tests.map((t) => JSON.stringify(t) + '\n').join(''));
  for (const [name, lines] of Object.entries(spec.runs ?? {})) {
    mkdirSync(join(root, 'results', name), { recursive: true });
    writeFileSync(
      join(root, 'results', name, 'predictions.jsonl'),
      lines.map((l) => JSON.stringify(l) + '\n').join(''),
    );
  }
  return root;
}

export const video = (
  ts: string,
  context: Record<string, unknown>,
  actions: Record<string, unknown>[] = [{ type: 'watch', play_duration: 10 }],
): RawRecord => ({
  type: 'Video Browsing',
  timestamp: ts,
  context: { duration: 60, play_cnt: 100, ...context },
  action: actions,
});
