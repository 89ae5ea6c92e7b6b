// Reads one run's results/<run>/predictions.jsonl and checks each line against the test actions.
import { JUDGE_DIMENSIONS, type JudgeScores } from './run/source';
import { DiagnosticSink, isInt, isRecord } from '../io/diagnostics';
import { readUserRows } from '../io/rows';
import { pyFloat } from '../io/pyNumber';
import { binaryLabel, fieldInfo, numberValue, predictedBinaryLabel } from './fields';
import { kindOf } from './records';
import { predictionKey, type FieldKind, type OmniUser, type Prediction, type Question } from './types';

const KINDS: readonly FieldKind[] = ['binary', 'continuous', 'text'];

export async function readPredictionsFile(
  abs: string,
  rel: string,
  users: ReadonlyMap<string, OmniUser>,
  sink: DiagnosticSink,
  onProgress?: (bytes: number) => void,
): Promise<Map<string, Prediction>> {
  const out = new Map<string, Prediction>();
  await readUserRows(
    abs,
    sink,
    kindOf,
    (v, raw) => {
      if (!isInt(v.index)) return sink.error(raw.line, 'index', `expected an integer, got ${kindOf(v.index)}`);
      const key = predictionKey(v.user_id, v.index);
      const action = users.get(v.user_id)?.testActions.find((t) => t.index === v.index);
      if (!action) return sink.warn(raw.line, 'index', `no test action ${key} in test_actions.jsonl; ignored`);
      if (out.has(key))
        return sink.warn(raw.line, 'index', `duplicate prediction for ${key}; the later one is ignored`);
      if (!Array.isArray(v.questions))
        return sink.error(raw.line, 'questions', `expected an array, got ${kindOf(v.questions)}`);
      const questions: Question[] = [];
      v.questions.forEach((q: unknown, i) => {
        const question = readQuestion(q, `questions[${i}]`, raw.line, sink);
        if (!question) return;
        if (!action.fields.includes(question.field)) {
          return sink.warn(
            raw.line,
            `questions[${i}].field`,
            `${question.field} is not asked by test action ${key}; ignored`,
          );
        }
        if (questions.some((x) => x.field === question.field)) {
          return sink.warn(
            raw.line,
            `questions[${i}].field`,
            `${question.field} answered twice; the repeat is ignored`,
          );
        }
        questions.push(question);
      });
      out.set(key, { userId: v.user_id, index: v.index, questions, file: rel, line: raw.line });
    },
    onProgress,
  );
  return out;
}

function readQuestion(q: unknown, at: string, line: number, sink: DiagnosticSink): Question | null {
  if (!isRecord(q)) {
    sink.error(line, at, `expected an object, got ${kindOf(q)}`);
    return null;
  }
  const info = typeof q.field === 'string' ? fieldInfo(q.field) : undefined;
  if (typeof q.field !== 'string' || !info) {
    sink.error(line, `${at}.field`, `unknown field ${JSON.stringify(q.field ?? null)}; ignored`);
    return null;
  }
  if (q.type !== info.kind) {
    const given = typeof q.type === 'string' && (KINDS as readonly string[]).includes(q.type) ? q.type : kindOf(q.type);
    sink.warn(line, `${at}.type`, `${q.field} is ${info.kind}, the line says ${given}; read as ${info.kind}`);
  }
  const trueValue = scalar(q.true_value);
  const predictedValue = scalar(q.predicted_value);
  if (info.kind === 'binary' && binaryLabel(trueValue) === undefined) {
    sink.warn(line, `${at}.true_value`, `${JSON.stringify(trueValue)} is not Yes / No; the question is not scored`);
  }
  if (info.kind === 'continuous' && pyFloat(trueValue) === undefined) {
    sink.warn(line, `${at}.true_value`, `${JSON.stringify(trueValue)} is not a number; the question is not scored`);
  }
  let predictedLabel: number | null = null;
  if (q.predicted_label === 0 || q.predicted_label === 1) predictedLabel = q.predicted_label;
  else if (q.predicted_label === true || q.predicted_label === false) predictedLabel = q.predicted_label ? 1 : 0;
  else if (q.predicted_label !== null && q.predicted_label !== undefined) {
    sink.warn(line, `${at}.predicted_label`, `expected 0, 1 or null, got ${kindOf(q.predicted_label)}; taken as null`);
  }
  if (info.kind === 'binary') predictedLabel = predictedBinaryLabel(predictedLabel, predictedValue);
  const question: Question = {
    type: info.kind,
    field: q.field,
    trueValue,
    predictedValue,
    predictedLabel,
    rawOutput: typeof q.raw_output === 'string' ? q.raw_output : '',
  };
  const videoDuration = scalar(q.video_duration);
  if (videoDuration !== null) question.videoDuration = videoDuration;
  if (isInt(q.prompt_tokens)) question.promptTokens = q.prompt_tokens;
  if (isInt(q.completion_tokens)) question.completionTokens = q.completion_tokens;
  if (q.judge_score !== undefined && q.judge_score !== null) {
    const j = numberValue(q.judge_score);
    if (j === undefined || j < 1 || j > 10)
      sink.warn(line, `${at}.judge_score`, `expected a number from 1 to 10, got ${kindOf(q.judge_score)}; ignored`);
    else question.judgeScore = j;
  }
  if (typeof q.judge_model === 'string') question.judgeModel = q.judge_model;
  if (q.judge_scores !== undefined && q.judge_scores !== null) {
    const scores = isRecord(q.judge_scores) ? q.judge_scores : {};
    const read = JUDGE_DIMENSIONS.map((d) => numberValue(scores[d]));
    if (read.every((v): v is number => v !== undefined && Number.isInteger(v) && v >= 1 && v <= 10))
      question.judgeScores = Object.fromEntries(JUDGE_DIMENSIONS.map((d, i) => [d, read[i]])) as JudgeScores;
    else
      sink.warn(
        line,
        `${at}.judge_scores`,
        `expected ${JUDGE_DIMENSIONS.join(', ')}, each a whole number from 1 to 10; ignored`,
      );
  }
  return question;
}

function scalar(value: unknown): string | number | null {
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return null;
}
