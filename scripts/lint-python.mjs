// `npm run lint`'s Python half: every .py file under src/ (the reference drivers, bundled as text) must compile.
// py_compile writes bytecode; PYTHONPYCACHEPREFIX keeps it out of the source tree.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const files = readdirSync('src', { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.py'))
  .map((f) => join('src', f));
const cache = mkdtempSync(join(tmpdir(), 'persona-lab-pycache-'));
const python = process.env.PYTHON || 'python3';
const run = spawnSync(python, ['-m', 'py_compile', ...files], {
  stdio: 'inherit',
  env: { ...process.env, PYTHONPYCACHEPREFIX: cache },
});
rmSync(cache, { recursive: true, force: true });
if (run.error) {
  console.error(`lint-python: could not run ${python} (${run.error.message}); set PYTHON to a Python 3 interpreter`);
  process.exit(2);
}
if (run.status !== 0) process.exit(run.status ?? 1);
console.log(`lint-python: ${files.length} Python files compile`);
