// What a glossary entry is, and the glossary one format brings (core/formats/glossaries.ts lists them): a leaf
// module, so that a format's terms and the glossary that joins them import no one but it.

export interface GlossaryTerm {
  /** as views print it: R_stab, Err_decay, NMAE, κ */
  short: string;
  long: string;
  /** one sentence, lower case first: the hover reads "short (long): definition" */
  definition: string;
  /** what a printed figure is in: "%", "pp", "% of the video's duration" */
  unit?: string;
  /** other spellings views print for the same thing (the task files' D_cluster) */
  aliases?: readonly string[];
  /** the heading `persona-lab glossary` lists it under: a format's name, or a topic of every format */
  topic: string;
}

/** One format's terms, under its own heading. */
export interface FormatGlossary {
  topic: string;
  terms: readonly GlossaryTerm[];
  /** metric names it prints in words that look like a symbol (the checker knows them) */
  words?: readonly string[];
}

/** The terms of one topic: `term(short, long, definition, unit?)`. */
export const termsOf =
  (topic: string) =>
  (short: string, long: string, definition: string, unit?: string): GlossaryTerm => ({
    short,
    long,
    definition,
    unit,
    topic,
  });
