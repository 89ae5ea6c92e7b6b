// Printing and exit codes shared by the CLI's commands.
import { hasErrors } from '../core/io/diagnostics';
import type { Diagnostic } from '../core/io/diagnostics';

export const print = (text: string) => process.stdout.write(text + '\n');

/** Errors make the exit status 1; the score is still printed. Diagnostics go to stderr when asked. */
export function exitFor(bench: { diagnostics: readonly Diagnostic[] }, summarize: boolean): number {
  const errors = bench.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = bench.diagnostics.length - errors;
  if (summarize && bench.diagnostics.length) {
    process.stderr.write(`${errors} error(s), ${warnings} warning(s); run \`persona-lab validate\` for details\n`);
  }
  return hasErrors(bench.diagnostics) ? 1 : 0;
}

/** "an" before a format's name that starts with a vowel ("an Acme folder"), else "a". */
export const article = (name: string) => (/^[aeiou]/i.test(name) ? 'an' : 'a');
