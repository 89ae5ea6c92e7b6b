// What changed in the request between two attempts of a step: a line diff of the system message and of the prompt,
// so that the prompt engineer sees the edit beside the change in the result. Lines that were changed (removed and
// added in one place) are marked word by word, so that a sentence appended to a long line is what shows, not the
// whole line struck and added again. Pure: no `vscode`.
import { diffLines, diffWordsWithSpace, type ChangeObject } from 'diff';

export interface PromptDiffPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export interface PromptDiff {
  /** the attempt compared with (its 1-based place among the step's attempts) */
  against: number;
  system: PromptDiffPart[];
  prompt: PromptDiffPart[];
  /** lines added and removed over both messages */
  added: number;
  removed: number;
}

export interface SentRequest {
  system: string;
  prompt: string;
}

const lineCount = (text: string) => (text === '' ? 0 : text.replace(/\n$/, '').split('\n').length);

/** Past this many characters a changed block stays marked by lines: a word diff of it would be noise. */
const WORD_DIFF_MAX = 4000;

const kindOf = (c: ChangeObject<string>): PromptDiffPart['kind'] =>
  c.added ? 'added' : c.removed ? 'removed' : 'same';

function parts(lines: ChangeObject<string>[]): PromptDiffPart[] {
  const out: PromptDiffPart[] = [];
  for (let i = 0; i < lines.length; i++) {
    const c = lines[i];
    const next = lines[i + 1];
    const changed = c.removed && next?.added;
    if (changed && c.value.length + next.value.length <= WORD_DIFF_MAX) {
      for (const w of diffWordsWithSpace(c.value, next.value)) out.push({ kind: kindOf(w), text: w.value });
      i++;
    } else out.push({ kind: kindOf(c), text: c.value });
  }
  // Neighbours of one kind as one part, as the page draws them.
  return out.reduce<PromptDiffPart[]>((acc, p) => {
    const last = acc[acc.length - 1];
    if (last && last.kind === p.kind) last.text += p.text;
    else if (p.text !== '') acc.push({ ...p });
    return acc;
  }, []);
}

export function promptDiff(before: SentRequest, after: SentRequest, against: number): PromptDiff {
  const systemLines = diffLines(before.system, after.system);
  const promptLines = diffLines(before.prompt, after.prompt);
  let added = 0;
  let removed = 0;
  // Counted in lines, whichever way they are marked.
  for (const c of [...systemLines, ...promptLines]) {
    if (c.added) added += lineCount(c.value);
    if (c.removed) removed += lineCount(c.value);
  }
  return { against, system: parts(systemLines), prompt: parts(promptLines), added, removed };
}
