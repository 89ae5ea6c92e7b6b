// Imported first by main.ts, so that the CLI restarts with its V8 flags before the rest of its modules are evaluated:
// whatever the first image does before it is replaced is time lost (a Node too old for `process.execve` is not
// restarted here, and main.ts's relaunch on the toolchain's Node then applies).
import { restartWith, youngGenerationFlags } from './youngGeneration';

const flags = youngGenerationFlags(process.execArgv, process.env, typeof process.execve === 'function');
if (flags) restartWith(flags);
