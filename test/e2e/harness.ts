// The e2e harness, re-exported for the tests' imports: the code lives in ./support/ (server.ts: code-server and the
// run's folders; browser.ts: Chromium; workbench.ts: startWorkbench and the Workbench page helpers; wait.ts).
export { chromiumArgs, chromiumBin } from './support/browser';
export {
  codeServerCommand,
  codeServerDir,
  codeServerVersion,
  defaultVsix,
  freePort,
  quietSettings,
  repoRoot,
  resultsDir,
} from './support/server';
export { insertInto, pressIn, typeInto, waitForFocus } from './support/keys';
export { waitFor } from './support/wait';
export { noBenchmarkWelcome } from './support/welcome';
export { LOG_CHANNEL, openWorkbenches, startWorkbench, Workbench, type WorkbenchOptions } from './support/workbench';
