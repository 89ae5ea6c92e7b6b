// The release's ten PI placeholders (spec section 6): what each stands for, and where they occur in a text.

export const PI_CATEGORIES = [
  'PHONE',
  'ID',
  'BANK',
  'EMAIL',
  'CONTACT',
  'PLATE',
  'IP',
  'GEO',
  'DEVICE',
  'SELF',
] as const;
export type PiCategory = (typeof PI_CATEGORIES)[number];

export function isPiCategory(value: unknown): value is PiCategory {
  return typeof value === 'string' && (PI_CATEGORIES as readonly string[]).includes(value);
}

/** The placeholder text that replaces a value of this category, e.g. `<PHONE>`. */
export function placeholderOf(category: PiCategory): string {
  return `<${category}>`;
}

/** For a legend: one short line per category. */
export const CATEGORY_INFO: Record<PiCategory, { label: string; description: string }> = {
  PHONE: { label: 'Phone', description: 'mobile, landline and international phone numbers' },
  ID: { label: 'ID document', description: 'resident ID (18/15 digits), passport, HK/Macau/Taiwan permits, HKID' },
  BANK: { label: 'Bank card', description: 'card and account numbers passing Luhn, in a banking context' },
  EMAIL: { label: 'E-mail', description: 'e-mail addresses' },
  CONTACT: { label: 'Contact handle', description: 'personal WeChat / QQ handles' },
  PLATE: { label: 'Licence plate', description: 'mainland licence plates, new-energy ones included' },
  IP: { label: 'IP address', description: 'IPv4 and IPv6 addresses' },
  GEO: { label: 'Coordinates', description: 'latitude / longitude pairs' },
  DEVICE: { label: 'Device id', description: 'MAC addresses, IMEI / MEID, advertising ids' },
  SELF: { label: 'Own name', description: "the user's own real name (heuristic)" },
};

export interface PlaceholderSpan {
  category: PiCategory;
  /** UTF-16 offsets into the text. */
  start: number;
  end: number;
}

/** Global (for replace / matchAll); use hasPlaceholder() for a yes/no test. */
export const PLACEHOLDER_RE = /<(PHONE|ID|BANK|EMAIL|CONTACT|PLATE|IP|GEO|DEVICE|SELF)>/g;
const PLACEHOLDER_TEST = /<(?:PHONE|ID|BANK|EMAIL|CONTACT|PLATE|IP|GEO|DEVICE|SELF)>/;

export function hasPlaceholder(text: string): boolean {
  return typeof text === 'string' && PLACEHOLDER_TEST.test(text);
}

/** Every placeholder in the text, in order. */
export function findPlaceholders(text: string): PlaceholderSpan[] {
  const out: PlaceholderSpan[] = [];
  if (typeof text !== 'string') return out;
  for (const m of text.matchAll(PLACEHOLDER_RE)) {
    out.push({ category: m[1] as PiCategory, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

export type CategoryCounts = Record<PiCategory, number>;

export function emptyCounts(): CategoryCounts {
  const c = {} as CategoryCounts;
  for (const k of PI_CATEGORIES) c[k] = 0;
  return c;
}

export function countPlaceholders(text: string, into: CategoryCounts = emptyCounts()): CategoryCounts {
  for (const p of findPlaceholders(text)) into[p.category]++;
  return into;
}
