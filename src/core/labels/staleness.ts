// Whether a label still describes its target: the content hash stored with the row against the target's hash now.
// Every format hashes its own targets; what a stale row is, and which stored hashes are well formed, is one rule.

/** 'unknown': the row has no hash (made before schema v2, or imported without one). */
export type Staleness = 'fresh' | 'stale' | 'unknown';

/** A row's freshness in a loaded benchmark; 'missing': its target is no longer in the data. */
export type Freshness = Staleness | 'missing';

/** A row against its target's one hash now. */
export function staleness(row: { contentHash: string }, current: string): Staleness {
  if (!row.contentHash) return 'unknown';
  return row.contentHash === current ? 'fresh' : 'stale';
}

/** Whether `text` is a hash a label may hold: a full sha256, or three short part hashes ("parts1:…"). */
export function isStoredHash(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text) || /^parts1:[0-9a-f]{16}:[0-9a-f]{16}:[0-9a-f]{16}$/.test(text);
}
