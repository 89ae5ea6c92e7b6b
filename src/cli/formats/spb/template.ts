// `persona-lab template init [FILE]`: writes the built-in prompt template out for editing (never over a file).
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { writeFileInside } from '../../../core/io/safeFs';
import { DEFAULT_TEMPLATE } from '../../../core/spb/prompt/prompt';
import { TEMPLATE_EXT } from '../../../core/spb/prompt/templateFiles';
import { print } from '../../output';

export const TEMPLATE_USAGE = `  template init [FILE]                                    write the built-in prompt template to FILE (default
                                                           my-template${TEMPLATE_EXT}) to edit and pass to run --template`;

export function runTemplateCommand(args: string[], usage: (message: string) => Error): number {
  const [sub, file = `my-template${TEMPLATE_EXT}`, extra] = args;
  if (sub !== 'init') throw usage(sub ? `unknown template subcommand "${sub}"` : 'template needs a subcommand: init');
  if (extra !== undefined) throw usage(`unexpected argument "${extra}"`);
  if (existsSync(file)) throw new Error(`${file} exists; choose another file name`);
  const text = DEFAULT_TEMPLATE.endsWith('\n') ? DEFAULT_TEMPLATE : `${DEFAULT_TEMPLATE}\n`;
  // Exclusive, and refused where a dangling link would lead the new file out of the folder it is named in.
  writeFileInside(dirname(resolve(file)), file, text, { exclusive: true });
  print(`wrote ${file} (the built-in template); run it with: persona-lab run <dir> --template ${file} ...`);
  return 0;
}
