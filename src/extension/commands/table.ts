// The command table: every command Persona Lab registers, as a factory from the extension's features (Ctx) to its
// handler, registered in one place (registerCommands). The generic commands are here; each format's own come from its
// contribution (`views`) in the same shape. A command that needs an open benchmark says which; the wrapper waits for
// the loads in progress and says so when none is open, so that handlers can count on it.
import * as vscode from 'vscode';
import type { Verdict } from '../../core/pi/verdicts';
import type { Benchmarks } from '../benchmarks';
import type { FormatContribution } from '../benchmarks/contribution';
import { exportReport, nextOpenFinding, openFindingSource, openFindingStep, verdictOnTargets } from '../audit/commands';
import { configureEndpoint } from '../endpoint/configure';
import { setServerPassword } from '../labels/serverLink';
import { sortUsersBy } from '../tree/sortUsers';
import { log } from '../log';
import { openWalkthrough } from '../walkthrough';
import { openBenchmark, refresh } from './benchmark';
import type { AuditApi } from '../audit';
import type { CompareCommands } from '../compare';
import type { Dashboards } from '../dashboard';
import type { EndpointService } from '../endpoint';
import type { LabelsApi } from '../labels';
import { sendDraft } from '../rerun/draftEditor';
import type { FormatBatches } from '../rerun/formatParts';
import type { FormatCommands, FormatCtx, Handler, Needs } from './command';
import { contributedCommands, type CommandId } from './ids';

/** What the handlers act on: the open benchmarks and the generic features activate() made. */
export interface Ctx extends FormatCtx {
  benchmarks: Benchmarks;
  labels: LabelsApi;
  dashboard: Dashboards;
  compare: CompareCommands;
  endpoint: EndpointService;
  audit: AuditApi;
  /** Batch Run… of the formats whose re-run part offers one */
  batches: FormatBatches;
}

interface Command {
  needs?: Needs;
  make(ctx: Ctx): Handler;
}

type CommandTable = { readonly [id in CommandId]?: Command };

const verdict = (v: Verdict): Command => ({ make: (c) => (node, nodes) => verdictOnTargets(c.audit, v, node, nodes) });

export const COMMANDS: CommandTable = {
  'personaLab.openBenchmark': { make: (c) => (arg) => openBenchmark(c.benchmarks, arg) },
  'personaLab.openWalkthrough': { make: () => () => openWalkthrough() },
  'personaLab.refresh': { needs: 'loads', make: (c) => () => refresh(c.benchmarks) },
  'personaLab.sortUsers': { needs: 'any', make: (c) => (node) => sortUsersBy(c.benchmarks, node) },
  'personaLab.openBenchmarkDashboard': { needs: 'any', make: (c) => (arg) => c.dashboard.open(arg) },
  'personaLab.compareRuns': { needs: 'any', make: (c) => (a, b) => c.compare.compareRuns(a, b) },
  'personaLab.compareMode.on': { needs: 'any', make: (c) => () => c.compare.setMode(true) },
  'personaLab.compareMode.off': { make: (c) => () => c.compare.setMode(false) },
  'personaLab.exportLabels': { make: (c) => (arg) => c.labels.files.exportLabels(arg) },
  'personaLab.importLabels': { make: (c) => (arg) => c.labels.files.importLabels(arg) },
  'personaLab.labelSummary': { make: (c) => () => c.labels.files.labelSummary() },
  'personaLab.editLabelSet': { make: (c) => () => c.labels.files.editLabelSet() },
  'personaLab.setLabelServerPassword': { make: (c) => () => setServerPassword(c.labels.service, c.secrets) },
  'personaLab.newLabelProject': { needs: 'any', make: (c) => () => c.labels.projects.create() },
  'personaLab.chooseLabelProject': { make: (c) => () => c.labels.projects.choose() },
  'personaLab.adjudicateLabels': { needs: 'any', make: (c) => (arg) => c.labels.adjudication.start(arg) },
  'personaLab.nextAssigned': { needs: 'any', make: (c) => (arg) => c.labels.projects.nextAssigned(arg) },
  'personaLab.runBatch': { needs: { capability: 'rerun' }, make: (c) => (arg) => c.batches.run(arg) },
  'personaLab.sendDraft': { needs: { capability: 'rerun' }, make: () => (arg) => sendDraft(arg) },
  'personaLab.configureEndpoint': { make: (c) => () => configureEndpoint(c.endpoint) },
  'personaLab.setApiKey': { make: (c) => () => c.endpoint.setKey() },
  'personaLab.clearApiKey': { make: (c) => () => c.endpoint.clearKey() },
  'personaLab.audit.run': { needs: { capability: 'audit' }, make: (c) => () => c.audit.session.run({ notify: true }) },
  'personaLab.audit.cancel': { make: (c) => () => c.audit.session.cancel() },
  'personaLab.audit.exportReport': { make: (c) => (arg) => exportReport(c.audit.session, arg) },
  'personaLab.audit.openSource': { make: (c) => (node, nodes) => openFindingSource(c.audit, node, nodes) },
  'personaLab.audit.openStep': { make: (c) => (node, nodes) => openFindingStep(c.audit, node, nodes) },
  'personaLab.audit.confirmLeak': verdict('confirmed-leak'),
  'personaLab.audit.markFalsePositive': verdict('false-positive'),
  'personaLab.audit.markNeedsReview': verdict('needs-review'),
  'personaLab.audit.nextOpenFinding': { make: (c) => () => nextOpenFinding(c.audit) },
};

const NOT_OPEN = 'Persona Lab: no benchmark is open. Open a benchmark folder first.';

/** Whether what the command needs is there, once the loads in progress are done; says so when it is not. */
async function has(needs: Needs, benchmarks: Benchmarks, own: FormatContribution | undefined): Promise<boolean> {
  await benchmarks.ready();
  if (needs === 'loads') return true;
  const open = benchmarks.all.filter((b) => b.bench);
  if (needs === 'own' && own) {
    if (open.some((b) => b.format.id === own.format.id)) return true;
    // The first format is the default one: without it, "no benchmark is open".
    if (own !== benchmarks.contributions[0]) {
      void vscode.window.showInformationMessage(`Persona Lab: no ${own.format.label} benchmark is open.`);
      return false;
    }
  } else if (typeof needs === 'object') {
    if (open.some((b) => b.format.capabilities.includes(needs.capability))) return true;
  } else if (open.length > 0) return true;
  void vscode.window.showWarningMessage(NOT_OPEN);
  return false;
}

/** One table from the generic commands and each format's own (`own` resolved to that format); an id twice throws. */
export function commandEntries(
  formats: readonly { contribution: FormatContribution; commands?: FormatCommands }[],
): Map<CommandId, { command: Command; own?: FormatContribution }> {
  const all = new Map<CommandId, { command: Command; own?: FormatContribution }>();
  const add = (table: CommandTable | FormatCommands, own?: FormatContribution) => {
    for (const id of Object.keys(table) as CommandId[]) {
      const command = table[id];
      if (!command) continue;
      if (all.has(id)) throw new Error(`command ${id} is in two tables`);
      all.set(id, { command, own });
    }
  };
  add(COMMANDS);
  for (const f of formats) if (f.commands) add(f.commands, f.contribution);
  return all;
}

/** Ids package.json contributes that no table registers (a format left out of this build): say so when run. */
export function missingCommands(registered: ReadonlySet<string>, contributed: readonly string[]): string[] {
  return contributed.filter((id) => !registered.has(id));
}

export function registerCommands(
  context: vscode.ExtensionContext,
  ctx: Ctx,
  formats: readonly { contribution: FormatContribution; commands?: FormatCommands }[],
): void {
  const entries = commandEntries(formats);
  for (const [id, { command, own }] of entries) {
    const handler: Handler = command.make(ctx);
    const needs = command.needs;
    const guarded: Handler = needs
      ? async (...args) => ((await has(needs, ctx.benchmarks, own)) ? handler(...args) : undefined)
      : handler;
    context.subscriptions.push(vscode.commands.registerCommand(id, guarded));
  }
  const missing = missingCommands(new Set(entries.keys()), contributedCommands(context.extension.packageJSON));
  // A format that wrote its commands but did not return them from `views` shows here (the smoke e2e reads this line).
  if (missing.length) log.warn(`commands no format of this build serves: ${missing.join(', ')}`);
  for (const id of missing) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, () => {
        void vscode.window.showWarningMessage(`Persona Lab: ${id} is not served by the formats of this build.`);
      }),
    );
  }
}
