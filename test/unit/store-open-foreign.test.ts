// A store opened to write looks at its file read-only first: a file that is not one of our databases is refused
// before any write (not a byte changed, no -wal or -shm left), a 0-byte file is refused as the README says, a special
// file (a FIFO, a link to /dev/zero) is refused without reading it.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExperimentLog } from '../../src/core/spb/experiments/log';
import { LabelStore } from '../../src/core/labels/store';
import { VerdictStore } from '../../src/core/pi/verdicts';
import { RunHistory } from '../../src/core/spb/run/history';

const dir = () => mkdtempSync(join(tmpdir(), 'pl-foreign-'));

describe('opening a store to write', () => {
  it('refuses an SQLite file of another schema without switching its journal or leaving -wal / -shm', () => {
    const d = dir();
    const other = join(d, 'other.db');
    const raw = new Database(other);
    raw.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
    raw.close();
    const before = readFileSync(other);
    const opens = [
      () => LabelStore.open(other),
      () => VerdictStore.open(other),
      () => ExperimentLog.open(other),
      () => RunHistory.open(other),
    ];
    for (const open of opens) expect(open).toThrow(/it holds other tables \(notes\)/);
    expect(readFileSync(other).equals(before)).toBe(true);
    expect(readdirSync(d)).toEqual(['other.db']);
  });

  it('refuses a 0-byte file and a text file, leaving them as they were', () => {
    const d = dir();
    const empty = join(d, 'empty.db');
    writeFileSync(empty, '');
    expect(() => LabelStore.open(empty)).toThrow(`${empty}: not a label database: the file is empty (0 bytes)`);
    expect(readFileSync(empty).length).toBe(0);
    const text = join(d, 'text.db');
    writeFileSync(text, 'just some notes\n');
    expect(() => LabelStore.open(text)).toThrow(/not a label database: the file is not an SQLite database/);
    expect(readFileSync(text, 'utf8')).toBe('just some notes\n');
    expect(readdirSync(d).sort()).toEqual(['empty.db', 'text.db']);
  });

  it('refuses a FIFO and a link to /dev/zero without reading them', () => {
    const d = dir();
    const fifo = join(d, 'fifo.db');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(() => LabelStore.open(fifo)).toThrow(/not a label database: a FIFO/);
    const zero = join(d, 'zero.db');
    symlinkSync('/dev/zero', zero);
    expect(() => LabelStore.open(zero)).toThrow(/not a label database: a device/);
  });
});
