// Index pages are derived data kept inside a benchmark's folder, so a folder that was cloned, unpacked or shared
// can arrive with pages someone else wrote: pages whose stamps match the files (archives keep sizes and times) but
// whose rows or figures say anything. A warm open believes a page without reading its file, so a page is used only
// if this user's Persona Lab wrote it: each page ends with an HMAC-SHA-256 under a random key that lives outside
// every benchmark folder (PERSONA_LAB_STATE_DIR, else $XDG_STATE_HOME/persona-lab, else ~/.local/state/persona-lab).
// The CLI and the extension run as the same user and share the key; anyone else's pages read as no page.
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { crypto } from '../io/builtins';

export const STATE_DIR_ENV = 'PERSONA_LAB_STATE_DIR';
const KEY_BYTES = 32;
const TAG_BYTES = 32;

/** The folder of this user's Persona Lab state (outside any benchmark). */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  const own = env[STATE_DIR_ENV];
  if (own) return own;
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'persona-lab');
}

let known: { dir: string; key: Buffer | string } | undefined;

/** This user's index key, made on first use; a string says why there is none (then no page is read or written). */
export function indexKey(): Buffer | string {
  const dir = stateDir();
  if (known?.dir === dir) return known.key;
  const path = join(dir, 'index.key');
  let key: Buffer | string;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      // Made whole under another name and linked into place, so a second process never reads half a key.
      const tmp = `${path}.${process.pid}.${crypto().randomBytes(4).toString('hex')}`;
      writeFileSync(tmp, crypto().randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
      try {
        linkSync(tmp, path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      } finally {
        unlinkSync(tmp);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const bytes = readFileSync(path);
    key = bytes.length === KEY_BYTES ? bytes : `${path}: expected ${KEY_BYTES} bytes, found ${bytes.length}`;
  } catch (err) {
    key = `no index key at ${path}: ${(err as Error).message}`;
  }
  known = { dir, key };
  return key;
}

const tagOf = (key: Buffer, body: Buffer): Buffer => crypto().createHmac('sha256', key).update(body).digest();

/** The page's bytes with this user's tag after them. */
export const seal = (key: Buffer, body: Buffer): Buffer => Buffer.concat([body, tagOf(key, body)]);

/** The page's bytes without the tag, or null when the tag is not this user's for these bytes. */
export function unseal(key: Buffer, sealed: Buffer): Buffer | null {
  if (sealed.length < TAG_BYTES) return null;
  const body = sealed.subarray(0, sealed.length - TAG_BYTES);
  return crypto().timingSafeEqual(tagOf(key, body), sealed.subarray(sealed.length - TAG_BYTES)) ? body : null;
}
