// The PI audit's public surface, for the CLI and the extension (step view highlighting, audit view, re-run guard).
// Webviews: import from ./placeholders directly; this barrel pulls in better-sqlite3 (verdicts).
export {
  PI_CATEGORIES,
  CATEGORY_INFO,
  findPlaceholders,
  countPlaceholders,
  hasPlaceholder,
  placeholderOf,
  isPiCategory,
} from './placeholders';
export type { PiCategory, PlaceholderSpan, CategoryCounts } from './placeholders';
export { scanText } from './scanner';
export type { Confidence, Finding, ScanOptions } from './types';
export { CONFIDENCES, CONFIDENCE_RANK } from './types';
export { maskText, scanPrompt, isLoopbackEndpoint } from './mask';
export type { PromptScan } from './mask';
export { auditBenchmark, findingKey, textHash } from './audit';
export type { AuditFinding, AuditOptions, AuditResult, CountRow } from './audit';
export { auditOmni, findingTraceTarget, OMNI_PARTS } from '../omni/piAudit';
export type { OmniAuditFinding, OmniAuditResult, OmniCountRow, OmniPart } from '../omni/piAudit';
export { VerdictStore, VerdictStoreError, VERDICTS, VERDICT_LABELS, isVerdict, latestByKey } from './verdicts';
export type { Verdict, VerdictRow, VerdictTarget, VerdictInput } from './verdicts';
export {
  buildReport,
  renderMarkdown,
  formatTextReport,
  formatFindingLine,
  formatCountTable,
  redactText,
} from './report';
export type { AuditReport, ReportFinding, ReportableFinding, ReportableResult, AnyCountRow } from './report';
