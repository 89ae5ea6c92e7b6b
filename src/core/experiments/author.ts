// Who an experiment is logged as: git's user.name in the benchmark's folder, else the OS user.
import { userInfo } from 'node:os';
import { childProcess } from '../io/builtins';

/** git's user.name in the folder, else the OS user; never fails. */
export function authorName(cwd: string): string {
  try {
    const name = childProcess().execFileSync('git', ['config', 'user.name'], {
      cwd,
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 5000,
    });
    if (name.trim()) return name.trim();
  } catch {
    // not a git folder, or no git
  }
  try {
    return userInfo().username;
  } catch {
    return '';
  }
}
