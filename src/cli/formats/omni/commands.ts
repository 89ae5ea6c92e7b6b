// OmniBehavior's own command of the CLI: `judge`, with its usage, options, examples and place in the top-level help.
import type { FormatCommand } from '../../commandSpec';
import { flag, many, text } from '../../optionTypes';
import { JUDGE_OPTIONS, JUDGE_USAGE, runJudgeCommand } from './judge';

// Its lines of `score --help`: what `score` prints for its folders.
export const OMNI_SCORE_USAGE = `                                                           OmniBehavior: the per-field scores, components, overall
                                                           and bias diagnostics`;

export const OMNI_COMMANDS: readonly FormatCommand[] = [
  {
    name: 'judge',
    rank: 60,
    summary: "judge <omnibehavior dir> --run NAME: the LLM judge on a run's answers",
    usage: JUDGE_USAGE,
    options: {
      ...JUDGE_OPTIONS,
      run: many,
      temperature: text,
      concurrency: text,
      timeout: text,
      'max-history-tokens': text,
      'pi-guard': text,
      'pi-guard-loopback': flag,
      reference: text,
      'no-reference': flag,
      python: text,
    },
    examples: [
      'judge sample/omnibehavior --run my-run',
      'judge sample/omnibehavior --run my-run --judge-base-url http://127.0.0.1:8000/v1 --judge-model m',
    ],
    run: (args, opts, cli) => runJudgeCommand(args, opts, cli.io),
  },
];
