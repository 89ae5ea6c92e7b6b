// What a label definition is. Each format's descriptor offers its default label set (its failure modes; ids are what
// the database keeps, so renaming a label never touches a stored row); taxonomy.ts validates a workspace's labels.json
// into these.

/**
 * The most specific target a label may be put on. Every label can go on a whole step; 'tag' labels may also go on
 * one tag of the pool, 'persona-span' labels on a selected span of the persona (or another text field).
 */
export type LabelScope = 'step' | 'tag' | 'persona-span';
export const LABEL_SCOPES: readonly LabelScope[] = ['step', 'tag', 'persona-span'];

export interface LabelDef {
  id: string;
  name: string;
  description: string;
  /** One character that toggles the label in the step view. */
  key?: string;
  scope: LabelScope;
  /** How to decide on this label (labels.json's `guide`), shown on the chip's hover and in the views' `?` sheet. */
  guide?: string;
}

/** A label set a format offers (its descriptor's `labels.set`): its key in labels.json and its default labels. */
export interface FormatLabelSet {
  key: string;
  defaults: readonly LabelDef[];
}

/** The longest `guide` a label set keeps, in characters (code points): a few short paragraphs. */
export const LABEL_GUIDE_MAX = 1000;

/** Keys the step view keeps for itself (next / previous step). */
export const DEFAULT_RESERVED_KEYS: readonly string[] = ['j', 'k'];

/** The label each format's set offers on an item whose text kept personal information the masking missed. */
export function piLeakLabel(scope: LabelScope): LabelDef {
  return {
    id: 'pi-leak',
    name: 'PI leak',
    description: 'Personal information slipped through the masking.',
    key: '9',
    scope,
  };
}
