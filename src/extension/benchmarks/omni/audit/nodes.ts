// The OmniBehavior part of the PI Audit tree: under each category an "OmniBehavior" node (the benchmark's findings
// and placeholders of that category, per part), then users, then findings (the rows of findingNodes.ts). A finding
// opens the trace view at its test action with its history record revealed (findingTraceTarget), or the raw file at
// its line when it belongs to no test action. Dataset text reaches tooltips only through appendText (escaped).
import type { OmniAuditFinding } from '../../../../core/omni/piAudit';
import type { TraceFindings } from './trace';
import { AuditUserNode, type FindingFormat } from '../../../audit/findingNodes';
import { omniFindingDescription, type OmniCategoryGroup } from './model';
import type { CategoryParent } from '../../../audit/nodeTypes';
import { AuditSourceNode } from '../../../audit/sourceNode';
import { openTraceFinding, openTraceSource } from './open';

/** The "OmniBehavior" row under a category: its users below it. */
export function omniSourceNode(
  parent: CategoryParent,
  group: OmniCategoryGroup,
  findings: FindingFormat<OmniAuditFinding>,
): AuditSourceNode {
  const row = {
    label: 'OmniBehavior',
    idPart: 'omnibehavior',
    contextValue: 'auditOmni',
    icon: 'pulse',
    data: { source: 'raw', label: 'raw files' },
  };
  return new AuditSourceNode(parent, group, row, (node) =>
    group.users.map((u) => new AuditUserNode(node, parent.ctx, findings, u, `${node.id}/${u.userId}`)),
  );
}

/** An OmniBehavior finding opens in the trace view at its test action, else its raw file at the line. */
export const omniFindings = (
  root: string,
  trace: () => TraceFindings | undefined,
): FindingFormat<OmniAuditFinding> => ({
  userWhere: ' · OmniBehavior',
  userLine: () => undefined,
  contextValue: 'auditTraceFinding',
  openTitle: 'Open in the Trace View',
  describe: omniFindingDescription,
  body: (f, md) => void md.appendText(f.text),
  clickHint: (f) =>
    f.testAction === null
      ? 'Click to open its source line, the value selected.'
      : 'Click to open the trace at the test action with the finding outlined; right-click to open its source line, or for verdicts.',
  open: (f) => openTraceSource(f, root),
  openInView: (f) => openTraceFinding(f, root, trace()),
});
