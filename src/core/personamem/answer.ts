// How the authors read a model's answer (Evaluation.extract_answer in inference.py of bowen-upenn/PersonaMem): the
// text after the last <final_answer> (a closing tag dropped), the set of option letters it names, right when that set
// is exactly the gold letter; otherwise the same test on the whole response. There is no "invalid" class: an answer
// naming no letter, or several, is wrong.
import { pyStrip } from '../io/pyString';

// Python's \w on str: letters, digits (Unicode) and underscore; its \b is a change between \w and not \w.
const WORD = /[\p{L}\p{N}_]/u;
const isWord = (ch: string | undefined) => ch !== undefined && WORD.test(ch);

/** The option letters a text names, as the authors' _extract_only_options finds them. */
export function optionLetters(text: string): Set<string> {
  const lower = text.toLowerCase();
  const inParens = new Set<string>();
  for (const m of lower.matchAll(/\(([a-d])\)/g)) inParens.add(m[1]);
  if (inParens.size > 0) return inParens;
  const bare = new Set<string>();
  const chars = Array.from(lower);
  chars.forEach((ch, i) => {
    if (ch >= 'a' && ch <= 'd' && !isWord(chars[i - 1]) && !isWord(chars[i + 1])) bare.add(ch);
  });
  return bare;
}

/** Python's str.strip(chars) for a set of characters. */
function stripChars(s: string, chars: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && chars.includes(s[a])) a++;
  while (b > a && chars.includes(s[b - 1])) b--;
  return s.slice(a, b);
}

const isOnly = (letters: Set<string>, letter: string) => letters.size === 1 && letters.has(letter);

export interface AnswerReading {
  correct: boolean;
  /** the text after the tag, as their results file's predicted_answer column holds it */
  predicted: string;
  /** the one letter the tagged text names, when it names exactly one */
  pick: string | undefined;
  /** neither the tagged text nor the whole response names exactly one letter: our count, scored wrong as theirs */
  unreadable: boolean;
}

export function readAnswer(response: string, correctAnswer: string): AnswerReading {
  const correct = stripChars(correctAnswer.toLowerCase(), '() ');
  let predicted = pyStrip(response);
  const TAG = '<final_answer>';
  const CLOSE = '</final_answer>';
  if (predicted.includes(TAG)) predicted = pyStrip(predicted.split(TAG).at(-1)!);
  if (predicted.endsWith(CLOSE)) predicted = pyStrip(predicted.slice(0, -CLOSE.length));
  const tagged = optionLetters(predicted);
  const whole = optionLetters(response);
  const pick = tagged.size === 1 ? [...tagged][0] : whole.size === 1 ? [...whole][0] : undefined;
  return {
    correct: isOnly(tagged, correct) || isOnly(whole, correct),
    predicted,
    pick,
    unreadable: tagged.size !== 1 && whole.size !== 1,
  };
}
