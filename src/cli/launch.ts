// dist/cli.js: what runs before the CLI itself (dist/cliMain.js, from main.ts) is loaded. The CLI is one bundle of
// 1.4 MB; compiling it is a fifth of a short job's time and of its memory over Node's own, so this small file decides
// first where the job runs: on the toolchain's Node when this one is too old for the stores (toolchainNode.ts), else
// here, restarted with its V8 flags (youngGeneration.ts); neither image it leaves compiles the bundle. Then it lets
// Node keep the bundle's compiled code in a per-user cache (compileCache.ts), and loads it.
import { forgetRestartTunables, restartWith, youngGenerationFlags } from './youngGeneration';
import { enableCliCompileCache } from './compileCache';
import { relaunch, toolchainNode } from './toolchainNode';

const toolchain = toolchainNode(__dirname);
if (toolchain) relaunch(toolchain, process.argv[1], process.argv.slice(2));
else {
  const flags = youngGenerationFlags(process.execArgv, process.env, typeof process.execve === 'function');
  if (flags) restartWith(flags);
  forgetRestartTunables(process.env);
  enableCliCompileCache();
  // Left as it is by the build (external): the CLI's own bundle beside this one. A require, not an import: an import
  // is hoisted above the restart, and the image about to be replaced would load the bundle first.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('./cliMain.js');
}
