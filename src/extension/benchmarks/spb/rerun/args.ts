// What the re-run commands accept as their argument: a StepRef, a tree node (step, user, platform), or nothing.
import { isRecord } from '../../../../core/guards';
import { isPlatform, type Platform } from '../../../../core/spb/types';

function rec(v: unknown): Record<string, unknown> | undefined {
  return isRecord(v) ? v : undefined;
}

/** A user node's user ({ row: { user } }), as platform and id. */
export function userOfNode(arg: unknown): { platform: Platform; userId: string } | undefined {
  const user = rec(rec(rec(arg)?.row)?.user);
  return user && isPlatform(user.platform) && typeof user.userId === 'string' && !('stepId' in (rec(arg) ?? {}))
    ? { platform: user.platform, userId: user.userId }
    : undefined;
}

/** A platform node's platform ({ row: { platform } }) or a platform name. */
export function platformOf(arg: unknown): Platform | undefined {
  if (isPlatform(arg)) return arg;
  const p = rec(rec(arg)?.row)?.platform;
  return isPlatform(p) && rec(rec(arg)?.row)?.user === undefined ? p : undefined;
}

/** A run name's timestamp part: local time, YYYYMMDD-HHMM. */
export function stamp(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}`;
}

/** A template or user name as a run-name part: letters, digits, . _ - only. */
export function slug(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 40) || 'run'
  );
}
