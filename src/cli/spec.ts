// What each command of the CLI takes: its options (Node's util.parseArgs, strict, one table per command), its usage
// text and two examples. One parser for every command let any command take any other's option and ignore it
// (`validate DIR --model foo` exited 0); now an option the command does not declare is a usage error naming it.
import { FORMATS } from '../core/formats';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { AUDIT_OPTIONS, AUDIT_USAGE } from './audit';
import { COMPARE_USAGE } from './compare';
import { DEMO_OPTIONS, DEMO_USAGE } from './demo';
import {
  BATCH_RUN_USAGES,
  FORMAT_COMMAND_OPTIONS,
  FORMAT_COMMAND_USAGES,
  FORMAT_COMMANDS,
  FORMAT_SCORE_USAGES,
  labelsJudgeFormats,
} from './formats';
import { RUN_OPTIONS } from './run';
import { flag, many, NO_CACHE, text } from './optionTypes';
import type { CommandSpec } from './commandSpec';

export type { CommandSpec };

type Options = ParseArgsOptionsConfig;

const SCORE_USAGE = [
  `  score <dir> [--run NAME]... [--json | --format latex|markdown|csv] [--write-reports] [--sample NAME] [--memory]
                                                           the paper's tables (or the JSON contract) per run`,
  ...FORMAT_SCORE_USAGES,
].join('\n');
const VALIDATE_USAGE = `  validate <dir> [--json]                                  every located problem in the benchmark's files
                                                           (${FORMATS.map((f) => f.label).join(', ')})`;
const GLOSSARY_USAGE = `  glossary [--json]                                        every metric and term the views and this CLI print: its
                                                           short and long name, what it is and its unit`;
const LABELS_USAGE_LINES = {
  export: `  labels export <db> [--out FILE] [--format jsonl|csv]    failure labels out of a label store`,
  import: `  labels import <db> FILE [--format jsonl|csv] [--conflicts local|incoming|both] [--resolve N=...]... [--dry-run]`,
  summary: `  labels summary <db> [--json] [--label-set labels.json] counts per label and platform, annotator agreement`,
  judge: labelsJudgeFormats()
    .map((j) => j.line)
    .join('\n'),
  projects: `  labels projects <url> [--json]                          a label server's labelling projects, progress per annotator`,
  gold: `  labels gold <db> [--json] [--project NAME] [--label-set labels.json]
                                                           the gold set (adjudicated, else unanimous, else open) with
                                                           counts, and each annotator against it: precision, recall
                                                           and kappa per label with 95 % bootstrap intervals;
                                                           --project NAME: that project's items (a label server)`,
} as const;
const LABELS_DB_NOTE = `                                                           (<db>: a label database, or a benchmark folder of either
                                                           format: its .personalab/labels.db, that benchmark's labels,
                                                           and with summary how many are fresh or stale)`;

const LABEL_SUBCOMMANDS: CommandSpec[] = [
  {
    name: 'labels export',
    summary: 'labels export <db> [--out FILE]: failure labels out of a label store',
    usage: LABELS_USAGE_LINES.export,
    options: { out: text, format: text },
    examples: ['labels export .personalab/labels.db --out labels.jsonl', 'labels export sample --format csv'],
  },
  {
    name: 'labels import',
    summary: "labels import <db> FILE: merge another annotator's labels",
    usage: LABELS_USAGE_LINES.import,
    options: { format: text, conflicts: text, resolve: many, 'dry-run': flag },
    examples: ['labels import sample bob.jsonl --dry-run', 'labels import sample bob.jsonl --resolve 1=incoming'],
  },
  {
    name: 'labels summary',
    summary: 'labels summary <db>: counts per label and platform, annotator agreement',
    usage: LABELS_USAGE_LINES.summary,
    options: { json: flag, 'label-set': text },
    examples: ['labels summary sample', 'labels summary .personalab/labels.db --json'],
  },
  {
    name: 'labels gold',
    summary: 'labels gold <db>: the gold set, and each annotator against it',
    usage: LABELS_USAGE_LINES.gold,
    options: { json: flag, project: text, 'label-set': text },
    examples: ['labels gold sample', 'labels gold postgres://carol@db.example.org/labels --project week-1 --json'],
  },
  {
    name: 'labels judge',
    summary: "labels judge <dir> --run NAME: the LLM judge against people's scores",
    usage: LABELS_USAGE_LINES.judge,
    options: { run: many, json: flag },
    // the first format's that has a judge (a build without one shows the shape)
    examples: labelsJudgeFormats()[0]?.examples ?? [
      'labels judge <dir> --run NAME',
      'labels judge <dir> --run NAME --json',
    ],
  },
  {
    name: 'labels projects',
    summary: "labels projects <url>: a label server's projects, progress per annotator",
    usage: LABELS_USAGE_LINES.projects,
    options: { json: flag },
    examples: [
      'labels projects postgres://ann@db.example.org/labels',
      'labels projects postgres://ann@db.example.org/labels --json',
    ],
  },
];

/**
 * The commands every format shares, each with its place in the top-level help (a format's own commands, in
 * cli/formats/, take places between them).
 */
const SHARED: readonly (CommandSpec & { rank: number })[] = [
  {
    name: 'score',
    rank: 10,
    summary: "score <dir>: the paper's tables per run",
    usage: SCORE_USAGE,
    options: { run: many, json: flag, format: text, 'write-reports': flag, sample: text, memory: flag, ...NO_CACHE },
    examples: ['score sample --run demo-llm --json', 'score sample --format latex'],
  },
  {
    name: 'validate',
    rank: 20,
    summary: "validate <dir>: every located problem in the benchmark's files",
    usage: VALIDATE_USAGE,
    options: { json: flag, ...NO_CACHE },
    examples: ['validate sample', 'validate sample --json'],
  },
  {
    name: 'run',
    rank: 30,
    summary: 'run <dir> --out NAME --base-url URL --model NAME: a prompt against an endpoint',
    usage: BATCH_RUN_USAGES.join('\n'),
    options: { ...RUN_OPTIONS, out: text, 'dry-run': flag, ...NO_CACHE },
    examples: [
      'run sample --out my-run --base-url http://127.0.0.1:8000/v1 --model m',
      'run data --size 32k --base-url http://127.0.0.1:8000/v1 --model gpt-4o --dry-run',
    ],
  },
  {
    name: 'audit',
    rank: 40,
    summary: 'audit <dir>: residual personal information the placeholders missed',
    usage: AUDIT_USAGE,
    options: { ...AUDIT_OPTIONS, json: flag, out: text, run: many, ...NO_CACHE },
    examples: ['audit sample --out report.md', 'audit sample --db .personalab/audit.db --min-confidence medium --json'],
  },
  {
    name: 'labels',
    rank: 50,
    summary: 'labels export|import|summary|gold|judge|projects <db>: the label store',
    usage: [...Object.values(LABELS_USAGE_LINES), LABELS_DB_NOTE].join('\n'),
    // `labels` with a subcommand it does not know: every label option, so that the subcommand is what is named.
    options: Object.assign({}, ...LABEL_SUBCOMMANDS.map((s) => s.options)) as Options,
    examples: ['labels summary sample', 'labels export .personalab/labels.db --out labels.jsonl'],
  },
  {
    name: 'compare',
    rank: 55,
    summary: 'compare <dir> --a RUN --b RUN: run B against run A, as Compare Runs shows them',
    usage: COMPARE_USAGE,
    options: { a: text, b: text, json: flag, format: text, limit: text, ...NO_CACHE },
    examples: ['compare sample --a random --b demo-llm', 'compare sample --a random --b demo-llm --json'],
  },
  {
    name: 'glossary',
    rank: 80,
    summary: 'glossary: every metric and term, with its unit',
    usage: GLOSSARY_USAGE,
    options: { json: flag },
    examples: ['glossary', 'glossary --json'],
  },
  {
    name: 'demo-endpoint',
    rank: 100,
    summary: 'demo-endpoint: the demo profiler (not an LLM) on 127.0.0.1',
    usage: DEMO_USAGE,
    options: { ...DEMO_OPTIONS },
    examples: ['demo-endpoint', 'demo-endpoint --port 8000'],
  },
  {
    name: 'sample',
    rank: 110,
    summary: 'sample <dir> --users N --out NAME: a seeded sample of users',
    usage: FORMAT_COMMAND_USAGES('sample').join('\n'),
    options: {
      ...FORMAT_COMMAND_OPTIONS('sample'),
      out: text,
      seed: text,
      'base-run': text,
      ...NO_CACHE,
    },
    examples: [
      'sample sample --users 40 --seed 7 --out s40',
      'sample sample --users 40 --seed 7 --by signature --base-run demo-llm --out s40-fail',
    ],
  },
  {
    name: 'experiment',
    rank: 120,
    summary: 'experiment <dir> --template FILE --sample NAME ...: a template over a sample, logged',
    usage: FORMAT_COMMAND_USAGES('experiment').join('\n'),
    options: { ...FORMAT_COMMAND_OPTIONS('experiment'), sample: text, 'base-run': text },
    examples: [
      'experiment sample --template my.plprompt --sample s40 --base-url http://127.0.0.1:8000/v1 --model m',
      'experiment sample --template my.plprompt --sample s40 --base-run demo-llm --base-url http://127.0.0.1:8000/v1 --model m --dry-run',
    ],
  },
  {
    name: 'experiments',
    rank: 130,
    summary: 'experiments <dir>: the experiment log',
    usage: FORMAT_COMMAND_USAGES('experiments').join('\n'),
    options: { json: flag, ...FORMAT_COMMAND_OPTIONS('experiments') },
    examples: ['experiments sample', 'experiments sample --json'],
  },
];

/** Every command, the most used first: the top-level help leads with the first five. */
export const COMMANDS: readonly CommandSpec[] = [...SHARED, ...FORMAT_COMMANDS].sort((a, b) => a.rank - b.rank);

/** The command `argv` names (a labels subcommand when it names a known one). */
export function specFor(command: string, rest: readonly string[]): CommandSpec | undefined {
  if (command === 'labels') {
    const sub = rest.find((a) => !a.startsWith('-'));
    const found = LABEL_SUBCOMMANDS.find((s) => s.name === `labels ${sub}`);
    if (found) return found;
  }
  return COMMANDS.find((c) => c.name === command);
}

/** Every spec, subcommands included (for the tests). */
export const ALL_SPECS: readonly CommandSpec[] = [...COMMANDS, ...LABEL_SUBCOMMANDS];

/** `--run NAME` (repeatable) / `--json`, with the value's name taken from the usage text ("NAME", "N", "latex|…"). */
function optionLines(spec: CommandSpec): string[] {
  return Object.entries(spec.options).map(([name, o]) => {
    const found = new RegExp(`--${name} ([^\\s\\]]+)`).exec(spec.usage)?.[1];
    const value = o.type === 'string' ? ` ${found && !found.startsWith('-') ? found : 'VALUE'}` : '';
    return `  --${name}${value}${o.multiple ? ' (repeatable)' : ''}`;
  });
}

export function commandHelp(spec: CommandSpec): string {
  const options = optionLines(spec);
  return [
    `Usage:\n${spec.usage}`,
    `Options of ${spec.name}:\n${options.length ? options.join('\n') : '  (none)'}\n  --help, -h`,
    `Examples:\n${spec.examples.map((e) => `  persona-lab ${e}`).join('\n')}`,
  ].join('\n\n');
}

export type Parsed =
  | { kind: 'help'; text: string }
  | { kind: 'usage'; message: string; help: string }
  | { kind: 'command'; command: string; args: string[]; values: Record<string, unknown> };

/**
 * Parses argv (after `node cli.js`): the command first, then its own options, strictly. `--help` anywhere gives the
 * command's help (the top-level help without a command).
 */
export function parseCli(argv: readonly string[], topHelp: string): Parsed {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') return { kind: 'help', text: topHelp };
  if (command.startsWith('-'))
    return { kind: 'usage', message: `the command comes first, before ${command}`, help: topHelp };
  const spec = specFor(command, rest);
  if (!spec) return { kind: 'usage', message: `unknown command "${command}"`, help: topHelp };
  const help = commandHelp(spec);
  try {
    const parsed = parseArgs({
      args: [...rest],
      allowPositionals: true,
      strict: true,
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
    });
    if (parsed.values.help) return { kind: 'help', text: help };
    return { kind: 'command', command, args: parsed.positionals, values: parsed.values };
  } catch (err) {
    const message = (err as Error).message;
    const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
    if (unknown)
      return {
        kind: 'usage',
        message: `${unknown} is not an option of ${spec.name} (persona-lab ${spec.name} --help lists them)`,
        help,
      };
    // A value missing or given to a flag: Node's message names the option.
    return { kind: 'usage', message: `${spec.name}: ${message.split('. ')[0]}`, help };
  }
}
