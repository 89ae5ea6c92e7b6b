// What changed in the request between two attempts of a step: a line diff of the system message and of the prompt,
// so that the prompt engineer sees the edit beside the change in the result. Pure: no `vscode`.
import { diffLines } from 'diff';

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

function parts(before: string, after: string): PromptDiffPart[] {
  return diffLines(before, after).map((c) => ({
    kind: c.added ? 'added' : c.removed ? 'removed' : 'same',
    text: c.value,
  }));
}

export function promptDiff(before: SentRequest, after: SentRequest, against: number): PromptDiff {
  const system = parts(before.system, after.system);
  const prompt = parts(before.prompt, after.prompt);
  let added = 0;
  let removed = 0;
  for (const p of [...system, ...prompt]) {
    if (p.kind === 'added') added += lineCount(p.text);
    if (p.kind === 'removed') removed += lineCount(p.text);
  }
  return { against, system, prompt, added, removed };
}
