// Seeded generator of a synthetic PersonaMem (v1) folder in the authors' file layout: questions_<size>.csv,
// shared_contexts_<size>.jsonl and results/eval_results_<size>_<model>.csv per simulated model. Invented text only,
// in our own words; the same options give the same bytes. Each simulated answer comes from a template whose verdict
// under the authors' answer reading is known by construction (a tagged letter, a tag closed, several letters, the
// article "a" next to a bare letter, a rescue by the whole response, no letter at all), and the `score` column says it.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Rng } from '../gen-sample/rng.mjs';

const TOPICS = [
  'cooking',
  'gardening',
  'homeRepair',
  'running',
  'boardGames',
  'photography',
  'budgeting',
  'languageLearning',
];
const NAMES = ['Ilse', 'Tomasz', 'Renata', 'Okon', 'Mireille', 'Bastian', 'Yaretzi', 'Kalani', 'Soren', 'Amara'];
const LIKES = [
  'early mornings',
  'spicy food',
  'quiet cafés',
  'long walks',
  'handwritten notes',
  'old maps',
  'jazz records',
  'crisp autumn days',
  'puzzle books',
  'tea with honey',
];
const DISLIKES = [
  'crowded trains',
  'loud alarms',
  'cold soup',
  'endless meetings',
  'sticky tables',
  'rushed plans',
  'bright screens at night',
  'vague instructions',
];
const VERBS = ['tried', 'started', 'gave up on', 'went back to', 'recommended', 'planned', 'compared', 'practised'];
const THINGS = [
  'a new routine',
  'the weekend plan',
  'that recipe',
  'the seed catalogue',
  'my training log',
  'the spreadsheet',
  'the lens kit',
  'the flashcards',
  'a cheaper option',
  'the second draft',
];
const REPLIES = [
  'That sounds like steady progress.',
  'Keeping notes will help you see what works.',
  'It may help to change one thing at once.',
  'A short check-in next week could be useful.',
  'You could ask a friend to join you.',
  'Small steps tend to stick better.',
];
const ASKS = [
  'What should I try next?',
  'Can you suggest something for this weekend?',
  'Which plan suits me now?',
  'What would you recommend given what I told you?',
  'How should I follow up on this?',
];
// The seven skills, with an older spelling for two of them so that a reader's mapping is exercised.
const TYPES = [
  'recall_user_shared_facts',
  'suggest_new_ideas',
  'acknowledge_latest_preferences',
  'track_full_preference_evolution',
  'revisit_reasons_behind_preference_updates',
  'provide_preference_aligned_recommendations',
  'generalize_to_new_scenarios',
  'recalling_facts_mentioned_by_the_user',
  'recalling_the_reasons_behind_previous_updates',
];
const LETTERS = ['a', 'b', 'c', 'd'];
// With `plant`, a few invented contact details for the PI audit to find (a mail address and a phone number in a
// user turn, an address in a question; the number and the address are in ranges reserved for examples). Appended
// without drawing from the generator, so that every other byte stays what the seed gives.
const PLANTED_TURNS = [
  {
    persona: 0,
    session: 1,
    text: (name) => ` If the plan changes, write to ${name.toLowerCase()}.marsh@quietpost.net.`,
  },
  { persona: 1, session: 2, text: () => ' My number is +44 7700 900123 if you need it.' },
];
const PLANTED_QUESTION = { persona: 2, question: 2, text: ' My home router is 203.0.113.57.' };

/** Python's repr() of a str: single quotes unless the text has one and no double quote. */
export function pyRepr(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else out += ch;
  }
  return out + quote;
}

/** Python's csv.writer quoting (QUOTE_MINIMAL, \r\n line ends). */
function csvLine(fields) {
  return (
    fields
      .map((f) => {
        const s = String(f);
        return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
      })
      .join(',') + '\r\n'
  );
}

const tokens = (text) => Math.ceil(text.length / 4);

function session(rng, persona, topic, turns) {
  const msgs = [
    {
      role: 'system',
      content: `Persona profile for this session: ${persona.name}, who likes ${persona.like} and avoids ${persona.dislike}. Topic: ${topic}.`,
    },
  ];
  for (let t = 0; t < turns; t++) {
    msgs.push({
      role: 'user',
      content: `User: I ${rng.pick(VERBS)} ${rng.pick(THINGS)} because of ${rng.pick(LIKES)}, though ${rng.pick(DISLIKES)} still bother me.`,
    });
    msgs.push({ role: 'assistant', content: `Assistant: ${rng.pick(REPLIES)} ${rng.pick(REPLIES)}` });
  }
  return msgs;
}

/**
 * A simulated reply to a question whose gold letter is `gold`: [response text, right under the authors' reading,
 * whether it names no single letter]. `skill` (0..1) is how often the template picks the gold letter.
 */
function reply(rng, gold, skill) {
  const pick = rng.chance(skill) ? gold : rng.pick(LETTERS.filter((l) => l !== gold));
  const other = rng.pick(LETTERS.filter((l) => l !== pick));
  const kind = rng.weighted(
    ['tag', 'closed', 'bare', 'several', 'article', 'rescue', 'none', 'upper'],
    [40, 12, 10, 8, 6, 8, 8, 8],
  );
  switch (kind) {
    case 'tag':
      return [`Given what you said earlier, this one fits you best. <final_answer>(${pick})`, pick === gold, false];
    case 'closed':
      return [`<final_answer>(${pick})</final_answer>`, pick === gold, false];
    case 'bare':
      return [`My choice is option ${pick}.\n<final_answer> ${pick}`, pick === gold, false];
    case 'several':
      return [`Both (${pick}) and (${other}) could work. <final_answer>(${pick}) or (${other})`, false, true];
    case 'article':
      // the bare-letter fallback also counts the article "a": two letters, never one
      return [`The best fit is a calm one, so: ${pick === 'a' ? 'b' : pick}`, false, true];
    case 'rescue':
      return [`Looking at (${pick}) first. <final_answer>none of the others`, pick === gold, false];
    case 'none':
      return ['I would need to think more about this.', false, true];
    default:
      return [`<final_answer>(${pick.toUpperCase()})`, pick === gold, false];
  }
}

export const RESULT_COLUMNS = [
  'score',
  'persona_id',
  'question_id',
  'user_question_or_message',
  'question_type',
  'topic',
  'context_length_in_tokens',
  'context_length_in_letters',
  'distance_to_ref_in_blocks',
  'distance_to_ref_in_tokens',
  'num_irrelevant_tokens',
  'distance_to_ref_proportion_in_context',
  'model_response',
  'len_of_model_response',
  'predicted_answer',
  'correct_answer',
];

/**
 * Writes one split into `out`. Options: seed, size ("32k", "1M"…), personas, sessions (per context), turns (per
 * session), questions (per context), models ([{ name, skill, answered }]: `answered` is the share of questions the
 * run has a row for, as a run whose requests partly failed), plant (a few invented contact details for the PI
 * audit). Returns counts.
 */
export function generatePersonaMem(out, opts) {
  const { seed = 1, size = '32k', personas = 3, sessions = 4, turns = 3, questions = 6, models = [] } = opts;
  const rng = new Rng(`personamem:${seed}:${size}`);
  fs.mkdirSync(path.join(out, 'results'), { recursive: true });
  const ctxFile = fs.openSync(path.join(out, `shared_contexts_${size}.jsonl`), 'w');
  const qRows = [];
  let contextBytes = 0;
  for (let p = 0; p < personas; p++) {
    // a name per persona, numbered past the list, so that no two personas ask the same question text
    const name = NAMES[p % NAMES.length] + (p >= NAMES.length ? ` ${1 + Math.floor(p / NAMES.length)}` : '');
    const persona = { name, like: rng.pick(LIKES), dislike: rng.pick(DISLIKES) };
    const messages = [];
    const sessionStarts = [];
    const topics = [];
    for (let s = 0; s < sessions; s++) {
      sessionStarts.push(messages.length);
      const topic = rng.pick(TOPICS);
      topics.push(topic);
      messages.push(...session(rng, persona, topic, turns));
    }
    if (opts.plant)
      for (const t of PLANTED_TURNS.filter((t) => t.persona === p && t.session < sessions))
        messages[sessionStarts[t.session] + 1].content += t.text(name);
    const id = createHash('sha256').update(`${seed}:${size}:${p}`).digest('hex');
    const line = JSON.stringify({ [id]: messages }) + '\n';
    contextBytes += Buffer.byteLength(line);
    fs.writeSync(ctxFile, line);
    const prefixTokens = [0];
    for (const m of messages) prefixTokens.push(prefixTokens.at(-1) + tokens(m.content));
    const prefixLetters = [0];
    for (const m of messages) prefixLetters.push(prefixLetters.at(-1) + m.content.length);
    for (let q = 0; q < questions; q++) {
      const s = rng.int(1, sessions - 1);
      const end =
        q === questions - 1
          ? messages.length - 1
          : rng.int(sessionStarts[s] + 1, s + 1 < sessions ? sessionStarts[s + 1] : messages.length - 1);
      const refSession = rng.int(0, s - 1);
      const ref = sessionStarts[refSession] + 1;
      const planted = opts.plant && p === PLANTED_QUESTION.persona && q === PLANTED_QUESTION.question;
      const question = `${rng.pick(ASKS)} (${persona.name}, question ${q + 1})${planted ? PLANTED_QUESTION.text : ''}`;
      const len = prefixTokens[end] + tokens(question);
      const dist = len - prefixTokens[ref];
      const gold = rng.pick(LETTERS);
      const texts = LETTERS.map((l, i) =>
        l === gold
          ? `(${l}) Since you like ${persona.like}, try ${rng.pick(THINGS)} again.`
          : `(${l}) ${i % 2 ? 'Why not' : 'Consider'} ${rng.pick(THINGS)}, it's popular with people who like ${rng.pick(LIKES)}.`,
      );
      qRows.push({
        persona_id: p,
        question_id: createHash('sha256').update(`${id}:${q}`).digest('hex').slice(0, 8) + `-q${q}-p${p}`,
        question_type: TYPES[(p * questions + q) % TYPES.length],
        topic: topics[s],
        context_length_in_tokens: len,
        context_length_in_letters: prefixLetters[end] + question.length,
        distance_to_ref_in_blocks: s - refSession,
        distance_to_ref_in_tokens: dist,
        num_irrelevant_tokens: 0,
        distance_to_ref_proportion_in_context: `${((dist / len) * 100).toFixed(2)}%`,
        user_question_or_message: question,
        correct_answer: `(${gold})`,
        all_options: `[${texts.map(pyRepr).join(', ')}]`,
        shared_context_id: id,
        end_index_in_shared_context: end,
      });
    }
  }
  fs.closeSync(ctxFile);
  const qCols = Object.keys(qRows[0]);
  fs.writeFileSync(
    path.join(out, `questions_${size}.csv`),
    csvLine(qCols) + qRows.map((r) => csvLine(qCols.map((c) => r[c]))).join(''),
  );
  const runs = [];
  for (const m of models) {
    const mr = new Rng(`personamem:${seed}:${size}:${m.name}`);
    let body = csvLine(RESULT_COLUMNS);
    let rows = 0;
    for (const q of qRows) {
      if (!mr.chance(m.answered ?? 1)) continue;
      const gold = q.correct_answer[1];
      const [response, right] = reply(mr, gold, m.skill);
      const after = response.includes('<final_answer>')
        ? response.split('<final_answer>').at(-1).replace('</final_answer>', '').trim()
        : response.trim();
      body += csvLine([
        right ? 'True' : 'False',
        q.persona_id,
        q.question_id,
        q.user_question_or_message,
        q.question_type,
        q.topic,
        q.context_length_in_tokens,
        q.context_length_in_letters,
        q.distance_to_ref_in_blocks,
        q.distance_to_ref_in_tokens,
        q.num_irrelevant_tokens,
        q.distance_to_ref_proportion_in_context,
        response,
        response.length,
        after,
        q.correct_answer,
      ]);
      rows++;
    }
    fs.writeFileSync(path.join(out, 'results', `eval_results_${size}_${m.name}.csv`), body);
    runs.push({ name: `${size}_${m.name}`, rows });
  }
  return { questions: qRows.length, contexts: personas, contextBytes, runs };
}
