// Persona Lab's own OmniBehavior prompt and reading, in our own words: the named fallback when no checkout of the
// OmniBehavior repository is at hand ("Persona Lab's prompt, not the benchmark's"; run.json and every view say so).
// The questions and their true values follow the benchmark's rules (../questions.ts); the wording, the history
// format and the reading rules below are ours. Requests use the authors' parameters as defaults (one user message,
// temperature 0.1, 50 completion tokens for Yes / No and 200 for numbers and text) and our attempt counts.
import { estimateTokens } from '../../runner/estimate';
import { indexUserFile, readHistory } from '../history';
import { deriveQuestions } from '../questions';
import type { FieldKind, HistoryIndex, HistoryRecord } from '../types';
import { OMNI_TEMPLATE_MARK } from './manifest';
import {
  JUDGE_DIMENSIONS,
  type JudgeScores,
  type OmniParsed,
  type OmniPromptSource,
  type OmniQuestionRequest,
} from './source';
import { crypto } from '../../io/builtins';

const ASK: Readonly<Record<string, string>> = {
  video_completed: 'Will the user watch this video to the end?',
  video_liked: 'Will the user like this video?',
  video_commented: 'Will the user comment on this video?',
  video_shared: 'Will the user share this video?',
  video_collected: 'Will the user save this video to their collection?',
  video_followed: "Will the user follow this video's author?",
  live_liked: 'Will the user like this live stream?',
  live_commented: 'Will the user comment in this live stream?',
  live_sent_gift: 'Will the user send the streamer a gift?',
  live_followed: 'Will the user follow this streamer?',
  live_shared: 'Will the user share this live stream?',
  live_clicked_cart: "Will the user open the stream's shopping cart?",
  ad_liked: 'Will the user like this ad?',
  ad_commented: 'Will the user comment on this ad?',
  ad_activated: "Will the user install or activate the ad's app or service?",
  ad_form_submitted: "Will the user fill in and submit the ad's form?",
  shop_added_to_cart: 'Will the user add this item to the cart?',
  shop_order_success: 'Will the user buy this item?',
  video_watch_seconds: 'For how many seconds will the user watch this video?',
  live_watch_seconds: 'For how many seconds will the user stay in this live stream?',
  ad_watch_seconds: 'For how many seconds will the user watch this ad?',
  search_keyword: 'What will the user type into the search box?',
  next_user_message: 'What will the user say next to the customer-service agent?',
};

const ANSWER: Record<FieldKind, string> = {
  binary: 'Answer with one word: Yes or No.',
  continuous: 'Answer with one whole number of seconds and nothing else.',
  text: 'Answer with the words only, without quotes or explanation.',
};

/** The template's text: {{slot}} names filled per question. */
export const OMNI_TEMPLATE = `You are simulating one real user of a short-video app. From the user's profile and recent activity, predict what they do in the scene below. Most people skip most things: answer as this user would, not as an eager one.

## Profile
{{profile}}

## Recent activity (oldest first)
{{history}}

## The scene
{{scene}}

## Question
{{question}}

{{answer_format}}`;

const clip = (v: unknown, n = 80): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
};

function describe(r: HistoryRecord): string {
  const ctx = Object.entries(r.context ?? {})
    .filter(([, v]) => v !== null && v !== '' && typeof v !== 'object')
    .slice(0, 6)
    .map(([k, v]) => `${k}: ${clip(v)}`);
  return `${r.timestamp} · ${r.scene}${ctx.length ? ` · ${ctx.join('; ')}` : ''}`;
}

function reacted(r: HistoryRecord): string {
  const acts = r.actions
    .filter((a) => a.type !== 'dialogue')
    .map((a) => {
      const attrs = Object.entries(a)
        .filter(([k, v]) => k !== 'type' && v !== null && typeof v !== 'object')
        .map(([k, v]) => `${k}=${clip(v, 24)}`);
      return attrs.length ? `${a.type} (${attrs.join(', ')})` : a.type;
    });
  return acts.length ? acts.join(', ') : 'no reaction';
}

/** The most recent records that fit the budget, oldest first. */
export function historyText(records: readonly HistoryRecord[], budget: number): string {
  const lines: string[] = [];
  let used = 0;
  for (let i = records.length - 1; i >= 0; i--) {
    const line = `- ${describe(records[i])} → ${reacted(records[i])}`;
    const cost = estimateTokens(line);
    if (used + cost > budget) break;
    lines.unshift(line);
    used += cost;
  }
  return lines.length ? lines.join('\n') : '(no earlier activity)';
}

function render(
  profile: string,
  history: readonly HistoryRecord[],
  target: HistoryRecord,
  q: Omit<OmniQuestionRequest, 'prompt'>,
  budget: number,
  context: string,
): string {
  const fill = (historyBlock: string) =>
    OMNI_TEMPLATE.replace('{{profile}}', profile || '(no profile)')
      .replace('{{history}}', historyBlock)
      .replace('{{scene}}', describe(target) + context)
      .replace('{{question}}', ASK[q.field] ?? `Will the user do this: ${q.field}?`)
      .replace('{{answer_format}}', ANSWER[q.kind]);
  const base = estimateTokens(fill(''));
  return fill(historyText(history, Math.max(0, budget - base)));
}

/** Our reading of a reply (think blocks dropped, quotes and a leading label taken off). */
export function readReply(kind: FieldKind, reply: string): OmniParsed {
  const text = reply
    .replace(/<think>[\s\S]*?(<\/think>|$)/g, '')
    .trim()
    .replace(/^(answer|keyword|reply)\s*[:：]\s*/i, '')
    .replace(/^["'“”「『]+|["'“”」』]+$/g, '')
    .trim();
  if (kind === 'binary') {
    const m = /^(yes|no)\b/i.exec(text);
    if (!m) return { ok: false, prediction: null, label: null, error: `not Yes or No: "${clip(text, 40)}"` };
    const yes = m[1].toLowerCase() === 'yes';
    return { ok: true, prediction: yes ? 1 : 0, label: yes ? 1 : 0, error: null };
  }
  if (kind === 'continuous') {
    const m = /-?\d+(?:\.\d+)?/.exec(text);
    if (!m) return { ok: false, prediction: null, label: null, error: `no number in "${clip(text, 40)}"` };
    return { ok: true, prediction: Number(m[0]), label: null, error: null };
  }
  return text === ''
    ? { ok: false, prediction: null, label: null, error: 'an empty reply' }
    : { ok: true, prediction: text, label: null, error: null };
}

const JUDGE_TEMPLATE = `Score how well a simulated customer's message matches what the real customer said, as four whole numbers from 1 (not at all) to 10 (fully):
- intent_fidelity: does it make the same request or decision?
- persona_mimicry: does it sound like this customer (tone, style)?
- knowledge_boundary: does it use only what the customer could know?
- semantic_alignment: could one replace the other without changing the conversation?

Customer profile: {{profile}}
Real message: {{truth}}
Simulated message: {{output}}

Reply with JSON only: {"scores": {"intent_fidelity": n, "persona_mimicry": n, "knowledge_boundary": n, "semantic_alignment": n}}`;

export function omniTemplateSource(): OmniPromptSource {
  const hash = crypto().createHash('sha256').update(OMNI_TEMPLATE).update('\0').update(JUDGE_TEMPLATE).digest('hex');
  const indexes = new Map<string, Promise<HistoryIndex>>();
  const indexOf = (file: string) => {
    let p = indexes.get(file);
    if (!p) {
      if (indexes.size > 8) indexes.clear();
      p = indexUserFile(file);
      indexes.set(file, p);
    }
    return p;
  };
  return {
    kind: 'template',
    name: OMNI_TEMPLATE_MARK,
    id: `persona-lab@${hash.slice(0, 12)}`,
    hash,
    async questions(file, _userId, index, opts) {
      const idx = await indexOf(file);
      const records = await readHistory(file, idx, 0, index + 1);
      const target = records.find((r) => r.index === index);
      if (!target) throw new Error(`${file}: action_history[${index}] cannot be read`);
      const history = records.filter((r) => r.index < index);
      return {
        filtered: false,
        questions: deriveQuestions(target).map((q) => {
          const turns = q.context?.length
            ? `\n\nThe conversation so far:\n${q.context.map((t) => `${t.role}: ${t.content}`).join('\n')}`
            : '';
          const base = {
            field: q.field,
            kind: q.kind,
            trueValue: q.trueValue,
            videoDuration: q.videoDuration ?? null,
            hasPriorUserSpeech: q.hasPriorUserSpeech ?? null,
          };
          return { ...base, prompt: render(idx.profile, history, target, base, opts.maxHistoryTokens, turns) };
        }),
      };
    },
    async request(kind) {
      const maxTokens = kind === 'binary' ? 50 : kind === 'judge' ? null : 200;
      return {
        userOnly: true,
        params: { temperature: 0.1, ...(maxTokens ? { max_tokens: maxTokens } : {}) },
        attempts: 3,
      };
    },
    async parse(kind, reply) {
      return readReply(kind, reply);
    },
    async judgeTarget(record) {
      const q = record.questions.find((x) => x.type === 'text');
      const truth = typeof q?.true_value === 'string' ? q.true_value : '';
      const output = typeof q?.predicted_value === 'string' ? q.predicted_value : '';
      if (!/客服|Customer Service/i.test(record.action_type) || !truth || !output)
        return { status: 'not_target', prompt: null };
      const turns = record.scene_info.action.flatMap((a) =>
        typeof a === 'object' && a !== null && (a as { type?: unknown }).type === 'dialogue'
          ? (((a as { content?: unknown }).content as { role?: unknown; content?: unknown }[]) ?? [])
          : [],
      );
      const at = turns.map((t) => t.role === 'user' && t.content === truth).lastIndexOf(true);
      if (at <= 0 || !turns.slice(0, at).some((t) => t.role === 'user')) return { status: 'skipped', prompt: null };
      const profile = /## Profile\n([\s\S]*?)\n\n## /.exec(record.prompts[0] ?? '')?.[1] ?? '';
      const prompt = JUDGE_TEMPLATE.replace('{{profile}}', profile)
        .replace('{{truth}}', truth)
        .replace('{{output}}', output);
      return { status: 'target', prompt };
    },
    async judgeParse(reply) {
      const m = /\{[\s\S]*\}/.exec(reply);
      try {
        const scores = (JSON.parse(m ? m[0] : reply) as { scores?: Record<string, unknown> }).scores ?? {};
        const out = {} as JudgeScores;
        for (const d of JUDGE_DIMENSIONS) {
          const v = Math.trunc(Number(scores[d]));
          if (!(v >= 1 && v <= 10)) return null;
          out[d] = v;
        }
        return out;
      } catch {
        return null;
      }
    },
    close: () => undefined,
  };
}
