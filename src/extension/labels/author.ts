// Who the labels are by. The name goes into every label row and decides whose labels the badges, counts and filters
// show, so it is asked once, before the first label is written, instead of being taken silently from the OS: the
// prompt offers the OS user name and says so, and the answer (or that default, on Escape) is saved in
// personaLab.labels.author, so it is never asked again. Pure (no `vscode`): the service gives it the host.

/** What asking needs from the window. */
export interface AuthorHost {
  /** personaLab.labels.author as set now ('' when unset). */
  setting(): string;
  /** The OS user name ('' when unknown). */
  osUser(): string;
  ask(options: { title: string; prompt: string; value: string }): PromiseLike<string | undefined>;
  /** Saves the name in personaLab.labels.author (user settings). */
  save(name: string): PromiseLike<void>;
}

/** The OS user name, else 'annotator'. */
export function defaultAuthor(osUser: string): string {
  return osUser.trim() || 'annotator';
}

/** The question's text: what the name is for, the default and where it is kept. */
export function authorPrompt(osUser: string): { title: string; prompt: string; value: string } {
  const value = defaultAuthor(osUser);
  const source = osUser.trim() ? `your OS user name, “${value}”` : `“${value}” (the OS user name is unknown)`;
  return {
    title: 'Persona Lab: your name on labels',
    prompt: `Recorded with every label you make; the default is ${source}. Asked once: saved in the setting personaLab.labels.author.`,
    value,
  };
}

export class AuthorGate {
  private asking: Promise<string> | undefined;
  /** The name given in this window: it stands even when saving it failed, so it is neither lost nor asked again. */
  private chosen: string | undefined;

  constructor(private readonly host: AuthorHost) {}

  /** The name labels are written as now: the setting, else the one given in this window; undefined before either. */
  current(): string | undefined {
    return this.host.setting().trim() || this.chosen;
  }

  /**
   * The author to write labels as, asking first when there is none; concurrent callers share one question. Rejects
   * when the name could not be saved in the setting, after it was taken for this window.
   */
  ensure(): Promise<string> {
    const set = this.current();
    if (set) return Promise.resolve(set);
    this.asking ??= this.ask().finally(() => (this.asking = undefined));
    return this.asking;
  }

  private async ask(): Promise<string> {
    const question = authorPrompt(this.host.osUser());
    const answer = (await this.host.ask(question))?.trim();
    const name = answer || question.value;
    this.chosen = name;
    await this.host.save(name);
    return name;
  }
}
