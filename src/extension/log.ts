// The extension's log: one LogOutputChannel ("Persona Lab" in the Output view), created by activate() and handed
// here. Features call `log.info(...)` etc.; before activation (and in unit tests, which never activate) the calls do
// nothing. Only a type is imported from vscode, so that modules the unit tests load stay free of it at run time.
//
// Levels: info for what the user did and what came of it (a benchmark loaded, a view shown, a report written: the
// e2e tests wait on some of these lines, so they must be written at the default level); warn for something that
// did not work but has a fallback; error for a failed action; debug for timings and navigation detail.
import type { LogOutputChannel } from 'vscode';

let channel: LogOutputChannel | undefined;

/** Called once by activate() with the channel it created (and disposes). */
export function setLogChannel(c: LogOutputChannel | undefined): void {
  channel = c;
}

export const log = {
  trace: (message: string): void => channel?.trace(message),
  debug: (message: string): void => channel?.debug(message),
  info: (message: string): void => channel?.info(message),
  warn: (message: string): void => channel?.warn(message),
  error: (message: string): void => channel?.error(message),
};
