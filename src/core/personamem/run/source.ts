// Where a PersonaMem request comes from and how its reply is read: the benchmark's own code in the user's checkout
// (reference/source.ts), or the Persona Lab template (below), the named fallback. Either way the model sees the
// question's history as the authors slice it (context[:end_index_in_shared_context], exclusive) and then the
// question with its options as one more user turn.
import type { ChatMessage } from '../../runner/client';
import { readAnswer } from '../answer';
import type { PmMessage } from '../contexts';
import type { PmQuestion } from '../types';

/** What one question sends besides the model. */
export interface PmRequest {
  messages: ChatMessage[];
  /** max_tokens, temperature… as the source's caller sets them ({} for the authors' OpenAI calls) */
  params: Record<string, unknown>;
  /** the client the authors' code chose for this model: their Claude and Gemini branches call those vendors' own
   * clients, whose request is sent here to the OpenAI-compatible endpoint as the same messages */
  api?: 'openai' | 'anthropic' | 'gemini';
}

/** How a reply was read: the results file's score and predicted_answer. */
export interface PmReading {
  score: boolean;
  predicted: string;
}

export interface PmRequestSource {
  kind: 'template' | 'reference';
  /** what every list shows */
  name: string;
  /** recorded with the run */
  id: string;
  checkout?: string;
  request(q: PmQuestion, history: readonly PmMessage[], model: string): Promise<PmRequest>;
  read(reply: string, correctAnswer: string): Promise<PmReading>;
  close(): void;
}

export const PM_TEMPLATE_NAME = 'Persona Lab template (not the benchmark’s request)';

const ROLES: readonly string[] = ['system', 'user', 'assistant'];

/** A history turn as a chat message; a role the chat API has no name for is sent as the user's. */
export function chatMessage(m: PmMessage): ChatMessage {
  return { role: (ROLES.includes(m.role) ? m.role : 'user') as ChatMessage['role'], content: m.content };
}

/** The last turn of the Persona Lab template: the question, its options one per line, how to answer. */
export function templateQuestion(q: PmQuestion): string {
  const options = q.options ? q.options.map((o) => o.trim()).join('\n') : q.optionsText;
  return [
    q.question,
    `Options:\n${options}`,
    'Pick the option that suits this user best, given everything they said earlier in our conversation. ' +
      'End your reply with the token <final_answer> followed by the letter in parentheses, e.g. <final_answer>(c).',
  ].join('\n\n');
}

/** Persona Lab's own request: the history as it is stored (persona turns kept), then the question. */
export function pmTemplateSource(): PmRequestSource {
  return {
    kind: 'template',
    name: PM_TEMPLATE_NAME,
    id: 'persona-lab-template@1',
    request: async (q, history) => ({
      messages: [...history.map(chatMessage), { role: 'user', content: templateQuestion(q) }],
      params: {},
    }),
    read: async (reply, correctAnswer) => {
      const r = readAnswer(reply, correctAnswer);
      return { score: r.correct, predicted: r.predicted };
    },
    close: () => undefined,
  };
}
