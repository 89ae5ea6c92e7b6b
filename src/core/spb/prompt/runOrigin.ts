// Which prompt made a run. A run folder with Persona Lab's run.json was made by this tool, with its built-in template
// or a template of the user's: in our words, not the StreamProfileBench authors' prompt, so its figures are another
// experiment and not comparable with the released runs. A run without run.json (a released run, or one made by the
// reference runner), or one Persona Lab made with the benchmark's own prompt builder, carries no mark. Reads only run.json's template; never throws.
import { join } from 'node:path';
import { isRecord } from '../../guards';
import { DEFAULT_TEMPLATE, templateId } from './prompt';
import { readRegularText } from '../../io/safeFs';

export const NOT_THE_BENCHMARK = "not the benchmark's prompt";
export const BUILTIN_TEMPLATE_MARK = `Persona Lab's template, ${NOT_THE_BENCHMARK}`;

export interface RunOrigin {
  template: 'builtin' | 'own';
  templateId: string;
  /** what every list and table says beside the run's name */
  mark: string;
}

export function readRunOrigin(root: string, run: string): RunOrigin | null {
  let value: unknown;
  try {
    value = JSON.parse(readRegularText(join(root, 'results', run, 'run.json')));
  } catch {
    return null;
  }
  if (!isRecord(value) || value.format !== 'persona-lab-run' || !isRecord(value.template)) return null;
  // Rendered by the checkout's own bench_task.py: the benchmark's prompt, comparable with the released runs.
  if (isRecord(value.template.reference)) return null;
  const text = value.template.text;
  if (typeof text !== 'string') return null;
  const id = templateId(text);
  return text === DEFAULT_TEMPLATE
    ? { template: 'builtin', templateId: id, mark: BUILTIN_TEMPLATE_MARK }
    : { template: 'own', templateId: id, mark: `Persona Lab run with template ${id}, ${NOT_THE_BENCHMARK}` };
}

/** The lines under a text table: each marked run and what made it; none when no run is marked. */
export function originNotes(root: string, runs: Iterable<string>): string[] {
  const marked = [...runs].flatMap((name) => {
    const o = readRunOrigin(root, name);
    return o ? [`  ${name}: ${o.mark}`] : [];
  });
  return marked.length === 0
    ? []
    : [
        'Made by Persona Lab with its own prompt wording (another experiment, not comparable with the released runs):',
        ...marked,
      ];
}
