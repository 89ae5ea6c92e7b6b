// OmniBehavior's terms in the glossary (core/glossary.ts): the metrics of its components and its judge.
import { termsOf, type FormatGlossary } from '../glossaryTerm';

const omni = termsOf('OmniBehavior');

export const OMNI_GLOSSARY: FormatGlossary = {
  topic: 'OmniBehavior',
  terms: [
    omni('F1', 'F1 of a binary question', 'the harmonic mean of precision and recall of the “yes” answers.', '%'),
    omni('Acc', 'accuracy', 'the share of a binary question’s answers that are right.', '%'),
    omni('Prec', 'precision', 'the share of the predicted “yes” answers that are right.', '%'),
    omni('Rec', 'recall', 'the share of the true “yes” answers predicted “yes”.', '%'),
    omni(
      'NMAE',
      'normalised mean absolute error',
      'the mean of |true − predicted| watch time divided by the video’s duration (clipped to 1), × 100; lower is better.',
      '% of the video’s duration',
    ),
    omni(
      'NMAE term',
      'one answer’s normalised error',
      'one watch-time answer’s |true − predicted| divided by the video’s duration (clipped to 1), × 100: what NMAE averages.',
      '% of the video’s duration',
    ),
    omni('judge', 'judge score', 'the LLM judge’s mean score of a customer-service utterance.', 'points of 10'),
    omni(
      'Overall',
      'overall score',
      'the mean of the components (binary F1 per scene, 100 − NMAE for video watch time, the judge for text).',
      '%',
    ),
    omni('graded', 'graded answer', 'an answer scored by its error or its judge score rather than right or wrong.'),
    omni(
      'left out',
      'left-out answer',
      'an answer without a usable value, left out of every metric as the reference does.',
    ),
  ],
};
