// One PersonaMem question asked: its request from the source (or an edited one), sent with the endpoint's retries,
// the reply read by the source's rules. The batch runner asks each question through this, and so can a view that
// re-runs one question with an edited prompt.
import { callWithRetries, type CallOutcome, type ChatMessage, type ChatTransport } from '../../runner/client';
import type { RetryPolicy } from '../../runner/client';
import type { PmMessage } from '../contexts';
import type { PmQuestion } from '../types';
import type { PmReading, PmRequest, PmRequestSource } from './source';

export interface PmAskInput {
  source: PmRequestSource;
  transport: ChatTransport;
  model: string;
  /** the user's temperature; undefined: none is sent, as in the authors' calls */
  temperature?: number;
  retry: RetryPolicy;
  signal?: AbortSignal;
  /** messages to send instead of the source's (an edited request); the source's parameters are kept */
  messages?: readonly ChatMessage[];
}

export interface PmAsked {
  /** what was sent */
  request: PmRequest;
  outcome: CallOutcome;
  /** the reading of the reply; null when no reply came (the request failed or was stopped) */
  reading: PmReading | null;
}

/** Asks one question with `history` (its context up to the end index, already sliced). */
export async function askPersonaMem(q: PmQuestion, history: readonly PmMessage[], input: PmAskInput): Promise<PmAsked> {
  const built = await input.source.request(q, history, input.model);
  const request: PmRequest = {
    ...built,
    messages: input.messages ? [...input.messages] : built.messages,
    params: input.temperature === undefined ? built.params : { ...built.params, temperature: input.temperature },
  };
  // Their loop reads whatever came back (a reply naming no letter is scored wrong): no reply is refused.
  const outcome = await callWithRetries(input.transport, '', '', () => null, input.retry, input.signal, {
    messages: request.messages,
    params: request.params,
  });
  const reading = outcome.ok && !outcome.aborted ? await input.source.read(outcome.raw, q.correctAnswer) : null;
  return { request, outcome, reading };
}
