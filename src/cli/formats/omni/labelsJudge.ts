// `persona-lab labels judge <omnibehavior dir>`: people's scores of a run's next_user_message answers (kept in the
// folder's label database) against the LLM judge's, per dimension.
import { join } from 'node:path';
import { omniBehavior } from '../../../core/omni/format';
import { judgeAgreement } from '../../../core/omni/judgeAgreement';
import { formatJudgeAgreement } from '../../../core/omni/judgeAgreementText';
import { cacheOption } from '../../cacheOption';
import type { LabelsJudgeCommand } from '../../labelsIo';

export const omniLabelsJudge: LabelsJudgeCommand = {
  usage: `  persona-lab labels judge <omnibehavior dir> --run NAME [--json]    the LLM judge against people's scores, per
                                                                     dimension: Spearman, weighted kappa, n`,
  line: `  labels judge <omnibehavior dir> --run NAME [--json]     the LLM judge against people's scores, per dimension`,
  examples: ['labels judge sample/omnibehavior --run my-run', 'labels judge sample/omnibehavior --run my-run --json'],
  folder: 'an OmniBehavior folder',
  async run(folder, runName, opts, io, readScores, usage) {
    const { bench } = await omniBehavior.load(folder, { runs: [runName], ...cacheOption(opts) });
    const run = bench.runs.get(runName);
    if (!run) throw usage(`--run ${runName}: no run under ${join(bench.root, 'results')}`);
    const rows = readScores();
    if (!rows) return 1;
    const agreement = judgeAgreement(run, rows);
    io.out(opts.json ? JSON.stringify(agreement) : formatJudgeAgreement(agreement));
    return 0;
  },
};
