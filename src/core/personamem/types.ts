// PersonaMem (v1) as its authors release it: per context size, a questions CSV (`questions_<size>.csv`) and the
// shared contexts (`shared_contexts_<size>.jsonl`, one `{ "<id>": [{ role, content }, …] }` per line); a run is a
// results CSV their inference writes (`results/eval_results_<size>_<model>.csv`). The contexts are never held in
// memory: each is indexed by its line's byte span and read back when a question's history is asked for.
import type { Diagnostic } from '../io/diagnostics';

/** The columns every questions CSV has (save_questions_to_csv); others (groundtruth_info, stereotypical) are kept out. */
export const QUESTION_COLUMNS = [
  'persona_id',
  'question_id',
  'question_type',
  'topic',
  'context_length_in_tokens',
  'context_length_in_letters',
  'distance_to_ref_in_blocks',
  'distance_to_ref_in_tokens',
  'num_irrelevant_tokens',
  'distance_to_ref_proportion_in_context',
  'user_question_or_message',
  'correct_answer',
  'all_options',
  'shared_context_id',
  'end_index_in_shared_context',
] as const;

export interface PmQuestion {
  split: string;
  /** the CSV line the record starts on */
  line: number;
  personaId: string;
  questionId: string;
  /** the string as the file spells it */
  questionType: string;
  /** one of the seven skills (SKILLS), or the raw string when no variant matches */
  skill: string;
  topic: string;
  contextTokens: number | undefined;
  distanceBlocks: number | undefined;
  distanceTokens: number | undefined;
  question: string;
  /** "(a)" … "(d)" as written */
  correctAnswer: string;
  /** the all_options cell verbatim: the authors put it in the request as it is */
  optionsText: string;
  /** the options parsed as a Python list of strings; undefined when the cell does not parse */
  options: string[] | undefined;
  contextId: string;
  endIndex: number | undefined;
  /** the cells a results file copies as the questions file spells them (RESULT_COPIED_COLUMNS) */
  resultCells: Readonly<Record<string, string>>;
}

/** The columns run_evaluation copies from a question into its results row, beside score, answer and response. */
export const RESULT_COPIED_COLUMNS = [
  'context_length_in_tokens',
  'context_length_in_letters',
  'distance_to_ref_in_blocks',
  'distance_to_ref_in_tokens',
  'num_irrelevant_tokens',
  'distance_to_ref_proportion_in_context',
] as const;

/** Where one shared context is in its JSONL file, and what is known of it without holding its text. */
export interface PmContext {
  id: string;
  /** absolute path of the JSONL file */
  file: string;
  offset: number;
  length: number;
  line: number;
  messages: number;
  /** indices of the messages that open a session (a system turn after a non-system one, and message 0) */
  sessionStarts: number[];
}

export interface PmSplit {
  size: string;
  questionsFile: string;
  contextsFile: string | undefined;
  questions: PmQuestion[];
  contexts: Map<string, PmContext>;
}

/** One row of the authors' results CSV (run_evaluation). */
export interface PmResultRow {
  line: number;
  questionId: string;
  personaId: string;
  questionType: string;
  topic: string;
  /** the `score` cell as written ("True" / "False"), when there is one */
  storedScore: string | undefined;
  /** undefined when the file has no model_response column */
  modelResponse: string | undefined;
  correctAnswer: string;
}

export interface PmRun {
  name: string;
  split: string;
  model: string;
  file: string;
  rows: PmResultRow[];
}

export interface PersonaMemBench {
  root: string;
  diagnostics: Diagnostic[];
  /** size ("32k", "128k", "1M") → split, in file-name order */
  splits: Map<string, PmSplit>;
  runs: Map<string, PmRun>;
}

/** The seven skills of the paper, as the authors' question_type_mapping names them, in the paper's order. */
export const SKILLS = [
  'recall_user_shared_facts',
  'suggest_new_ideas',
  'acknowledge_latest_preferences',
  'track_full_preference_evolution',
  'revisit_reasons_behind_preference_updates',
  'provide_preference_aligned_recommendations',
  'generalize_to_new_scenarios',
] as const;

/** Short column heads for the tables. */
export const SKILL_HEADS: Record<string, string> = {
  recall_user_shared_facts: 'Recall facts',
  suggest_new_ideas: 'New ideas',
  acknowledge_latest_preferences: 'Latest pref.',
  track_full_preference_evolution: 'Pref. evolution',
  revisit_reasons_behind_preference_updates: 'Update reasons',
  provide_preference_aligned_recommendations: 'Aligned recs',
  generalize_to_new_scenarios: 'Generalize',
};

// Every spelling of a skill seen in the authors' code (question_type_mapping's old names, the names other
// evaluators use) and in the released files, so that one skill is one group whatever the file calls it.
const VARIANTS: Record<string, string> = {
  recalling_facts_mentioned_by_the_user: 'recall_user_shared_facts',
  identifying_new_things_not_mentioned_by_the_user: 'suggest_new_ideas',
  recalling_the_latest_user_preferences: 'acknowledge_latest_preferences',
  acknowledge_latest_user_preferences: 'acknowledge_latest_preferences',
  tracking_the_full_sequence_of_preference_updates: 'track_full_preference_evolution',
  track_full_preference_updates: 'track_full_preference_evolution',
  recalling_the_reasons_behind_previous_updates: 'revisit_reasons_behind_preference_updates',
  recommendation_aligned_with_users_latest_preferences: 'provide_preference_aligned_recommendations',
  generalizing_past_reasons_in_memory_to_new_scenarios: 'generalize_to_new_scenarios',
  generalizing_to_new_scenarios: 'generalize_to_new_scenarios',
};

/** The skill a question_type string names, or undefined when it is none of the known spellings. */
export function skillOf(questionType: string): string | undefined {
  const t = questionType.trim();
  return (SKILLS as readonly string[]).includes(t) ? t : VARIANTS[t];
}
