import type { PiCategory } from './placeholders';

export type Confidence = 'high' | 'medium' | 'low';
export const CONFIDENCES: readonly Confidence[] = ['high', 'medium', 'low'];
export const CONFIDENCE_RANK: Record<Confidence, number> = { high: 3, medium: 2, low: 1 };

/** A residual PI value in a text. Offsets are UTF-16 code units into the text that was scanned. */
export interface Finding {
  category: PiCategory;
  confidence: Confidence;
  start: number;
  end: number;
  text: string;
  reason: string;
}

/** A detector's proposal, in offsets of the normalised text. */
export interface Candidate {
  category: PiCategory;
  confidence: Confidence;
  start: number;
  end: number;
  reason: string;
}

export interface ScanOptions {
  /** Only these categories (all when absent). */
  categories?: readonly PiCategory[];
  /** Drop findings below this confidence (default 'low': keep all). */
  minConfidence?: Confidence;
  /** "Today" for the birth-date plausibility of IDs. */
  now?: Date;
}
