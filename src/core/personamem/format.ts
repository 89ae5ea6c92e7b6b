// PersonaMem as a format: how a folder is recognised (names only), loaded, validated and scored.
import { defineFormat, type ScoreRequest, type ScoreResult } from '../formats/descriptor';
import { formatTable } from '../tables/format';
import { ID_ORDER } from '../userOrder';
import { auditPersonaMem } from './audit';
import { personaMemDemoAnswer } from './demo';
import { QUESTION_LABEL_SET, questionFreshness } from './labels';
import { loadPersonaMem, personaMemRoot } from './load';
import { scoreJson, scoreTables, scoreText } from './report';
import { runDiagnostics, scorePersonaMemRun } from './score';
import type { PersonaMemBench } from './types';

function validate(bench: PersonaMemBench) {
  const splits = [...bench.splits.values()];
  const questions = splits.reduce((n, s) => n + s.questions.length, 0);
  const contexts = splits.reduce((n, s) => n + s.contexts.size, 0);
  return {
    json: { format: 'personamem', splits: splits.map((s) => s.size), questions, contexts, runs: bench.runs.size },
    summary: `${splits.length} splits (${splits.map((s) => s.size).join(', ')}), ${questions} questions, ${contexts} contexts, ${bench.runs.size} runs`,
  };
}

async function score(bench: PersonaMemBench, req: ScoreRequest): Promise<ScoreResult> {
  const scores = [...bench.runs.values()].map((run) => scorePersonaMemRun(bench, run));
  const out = req.output;
  const text =
    out.kind === 'json'
      ? JSON.stringify(scoreJson(bench, scores))
      : out.kind === 'table'
        ? scoreTables(scores)
            .map((t) => formatTable(t, out.format))
            .join('\n')
        : scoreText(bench, scores);
  return { text, warnings: [] };
}

export const personaMem = defineFormat({
  id: 'personamem',
  label: 'PersonaMem',
  detect: (target) => personaMemRoot(target) !== undefined,
  async read(target, opts) {
    const root = personaMemRoot(target);
    if (!root) throw new Error(`${target}: no PersonaMem folder (questions_<size>.csv)`);
    const bench = await loadPersonaMem(root, { runs: opts.runs, onProgress: opts.onProgress });
    for (const run of bench.runs.values()) bench.diagnostics.push(...runDiagnostics(bench, run));
    return bench;
  },
  validate,
  score,
  scoreContract: {
    keys: ['format', 'splits', 'runs', 'byContextLength'],
    description:
      'format: "personamem"; splits: [{ size, questions, personas, contexts }]; runs: [{ name, split, model, ' +
      'answered, correct, accuracy, unreadable, byType: { SKILL: { answered, correct, accuracy, spellings } }, ' +
      'byTopic: { TOPIC: { answered, correct, accuracy } }, byDistanceBlocks: { N: { … } } | null, ' +
      'coverage: { users, questions, whole } }]; byContextLength: [{ model, splits: { SIZE: { answered, correct, ' +
      'accuracy, whole } } }]. Accuracy is a fraction, null when nothing was answered.',
  },
  orderKeys: { id: ID_ORDER },
  defaultOrder: { key: 'id', direction: 'ascending' },
  unit: { singular: 'question', plural: 'questions' },
  capabilities: {
    rerun: true,
    itemView: 'question',
    audit: (bench, req) => auditPersonaMem(bench, req),
    labels: {
      targets: ['step'],
      freshness: (bench, benchmark, rows) => Promise.resolve(questionFreshness(bench, benchmark, rows)),
      set: QUESTION_LABEL_SET,
    },
  },
  demoAnswer(messages) {
    const pm = personaMemDemoAnswer(messages);
    return pm && { content: pm.content, summary: `PersonaMem: (${pm.letter}), ${pm.shared} shared words` };
  },
});
