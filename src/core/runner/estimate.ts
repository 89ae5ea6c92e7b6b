// "Cost before you spend": the requests a run will make and an estimate of its prompt tokens, from the prompts it
// will send (plannedPrompts), and of its cost where prices per million tokens are given.
//
// The estimator, documented because it is only one: no tokenizer ships with Persona Lab, and endpoints differ.
//   - a CJK character (Han, kana, hangul, CJK punctuation, full-width forms) counts as 1 token: benchmarks' texts
//     are often Chinese, and BPE tokenizers of recent models take about 0.6-1.5 tokens per Han character;
//   - any other text counts as 1 token per 4 characters (rounded up per run of such text), the usual rule for
//     English and JSON;
//   - each request adds 8 tokens of chat framing (two messages).
// What a request holds that the run writes during the run (a persona a chain's later steps receive) is unknown before
// it and counted as empty, so the estimate is low by its length. Completion tokens cannot be known before a run: with
// --max-tokens the output cost is given as an upper bound, otherwise left out.

const CJK =
  /[\u2e80-\u2fdf\u3000-\u30ff\u3100-\u31ff\u3200-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/u;
const FRAMING_TOKENS = 8;

/** Estimated tokens of a text (see the rules above). */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let other = 0;
  for (const ch of text) {
    if (CJK.test(ch)) {
      tokens += 1 + Math.ceil(other / 4);
      other = 0;
    } else other++;
  }
  return tokens + Math.ceil(other / 4);
}

export interface Prices {
  /** USD (or any currency) per million prompt tokens */
  inputPerMTok?: number;
  /** per million completion tokens */
  outputPerMTok?: number;
}

export interface RunEstimate {
  /** requests still to make: one per step not yet in the journal (retries add more) */
  requests: number;
  /** steps a resume will skip (already in the journal) */
  done: number;
  promptTokens: number;
  /** requests × max tokens, when a maximum is set */
  maxCompletionTokens: number | null;
  inputCost: number | null;
  /** an upper bound (from the maximum), null without a maximum or a price */
  maxOutputCost: number | null;
}

/** One request a run may send: `done` when a resume will skip it; `maxTokens` its completion cap, if any. */
export interface EstimatedRequest {
  system: string;
  prompt: string;
  done?: boolean;
  maxTokens?: number | null;
  /** tokens counted elsewhere (a history shared by many requests, estimated once) */
  extraTokens?: number;
}

/** The estimate over requests of any benchmark (the completion bound only when every request has a cap). */
export function estimateRequests(items: Iterable<EstimatedRequest>, prices?: Prices): RunEstimate {
  let requests = 0;
  let done = 0;
  let promptTokens = 0;
  let maxCompletionTokens: number | null = 0;
  for (const p of items) {
    if (p.done) {
      done++;
      continue;
    }
    requests++;
    promptTokens += estimateTokens(p.system) + estimateTokens(p.prompt) + (p.extraTokens ?? 0) + FRAMING_TOKENS;
    maxCompletionTokens = p.maxTokens && maxCompletionTokens !== null ? maxCompletionTokens + p.maxTokens : null;
  }
  if (requests === 0) maxCompletionTokens = null;
  const inPrice = prices?.inputPerMTok;
  const outPrice = prices?.outputPerMTok;
  return {
    requests,
    done,
    promptTokens,
    maxCompletionTokens,
    inputCost: inPrice !== undefined ? (promptTokens * inPrice) / 1e6 : null,
    maxOutputCost:
      outPrice !== undefined && maxCompletionTokens !== null ? (maxCompletionTokens * outPrice) / 1e6 : null,
  };
}

const money = (x: number) => (x < 0.01 && x > 0 ? x.toPrecision(2) : x.toFixed(2));

/** One line for a person: "estimate: 40 requests, ~12,345 prompt tokens, input cost ~0.37 (…)". */
export function estimateLine(e: RunEstimate, unit = 'step'): string {
  const parts = [
    `${e.requests} request${e.requests === 1 ? '' : 's'}${e.done ? ` (${e.done} ${unit}${e.done === 1 ? '' : 's'} already done)` : ''}`,
    `~${e.promptTokens.toLocaleString('en-US')} prompt tokens`,
  ];
  if (e.maxCompletionTokens !== null)
    parts.push(`at most ${e.maxCompletionTokens.toLocaleString('en-US')} completion tokens`);
  if (e.inputCost !== null) parts.push(`input cost ~${money(e.inputCost)}`);
  if (e.maxOutputCost !== null) parts.push(`output cost at most ${money(e.maxOutputCost)}`);
  return `estimate: ${parts.join(', ')} (tokens estimated from the rendered prompts; retries add more)`;
}
