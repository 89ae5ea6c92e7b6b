// The command table: every command Persona Lab registers, as a factory from the extension's features (Ctx) to its
// handler, registered in one place (registerCommands). A command that needs an open benchmark says which format or
// capability; the wrapper waits for the loads in progress and says so when none is open, so that handlers can count
// on it.
import * as vscode from 'vscode';
import { omniBehavior, streamProfileBench } from '../../core/formats';
import type { CapabilityName } from '../../core/formats/descriptor';
import type { Verdict } from '../../core/pi/verdicts';
import type { Benchmarks } from '../benchmarks';
import { chooseOmniRun, openTrace, revealTestAction } from '../benchmarks/omni/commands';
import type { AuditApi } from '../audit';
import { exportReport, nextOpenFinding, openFindingSource, openFindingStep, verdictOnTargets } from '../audit/commands';
import type { CompareCommands } from '../compare';
import type { Dashboards } from '../dashboard';
import type { EndpointService } from '../endpoint';
import { configureEndpoint } from '../endpoint/configure';
import {
  compareExperiment,
  diffTemplates,
  newSampleCommand,
  promoteExperiment,
  runTemplateOnSample,
  type ExperimentDeps,
} from '../experiments/commands';
import { runLongContextBaseline, showLongContextTable } from '../experiments/longContext';
import type { LabelsApi } from '../labels';
import { clearStepFilter, filterSteps, nextUnlabelled } from '../labels/spb/filterCommands';
import { spbLabels } from '../labels/spb/part';
import { setServerPassword } from '../labels/serverLink';
import { runAblation } from '../rerun/ablation';
import { rerunChain, rerunPlatforms, resumeRun } from '../rerun/batch';
import { rerunFailed } from '../rerun/failed';
import type { FormatBatches } from '../rerun/formatParts';
import { editPrompt, sendDraft } from '../rerun/draft';
import { editTestActionPrompt, rerunTestAction, type OmniRerunDeps } from '../omniRerun/actions';
import { judgeOmniRun, runTestActions, setJudgeKey } from '../omniRerun/batch';
import { draftKindOf } from '../rerun/draftKinds';
import { saveDraftAsTemplate } from '../rerun/draftTemplate';
import { rerunStep, type RerunDeps } from '../rerun/step';
import { navigate, openStep, type StepViews } from '../stepView';
import { newTemplate, previewPrompt, type TemplateDeps, type TemplateLibrary } from '../templates';
import type { TracePanel } from '../traceView/panel';
import { copyUserId, revealUser, type TreeApi } from '../tree';
import { sortUsersBy } from '../tree/sortUsers';
import { clearSampleFilter, filterTreeToSample } from '../tree/sampleCommands';
import { chooseRun, openBenchmark, refresh, showDiagnostics } from './benchmark';
import type { CommandId } from './ids';
import { openWalkthrough } from '../walkthrough';

/** What the handlers act on: the open benchmarks and the features activate() made. */
export interface Ctx {
  benchmarks: Benchmarks;
  tree: TreeApi;
  stepViews: StepViews;
  labels: LabelsApi;
  dashboard: Dashboards;
  compare: CompareCommands;
  endpoint: EndpointService;
  templates: { library: TemplateLibrary; deps: TemplateDeps };
  rerun: RerunDeps;
  omniRerun: OmniRerunDeps;
  /** Batch Run… of the formats whose re-run part offers one */
  batches: FormatBatches;
  secrets: vscode.SecretStorage;
  experiments: ExperimentDeps;
  audit: AuditApi;
  traceView: TracePanel;
}

type Handler = (...args: unknown[]) => unknown;

/**
 * `loads`: waits for the loads in progress; `{ format }`: also needs a benchmark of that format open;
 * `{ capability }`: one open whose format offers it; `any`: any open benchmark.
 */
type Needs = 'loads' | 'any' | { format: string } | { capability: CapabilityName };

const SPB = { format: streamProfileBench.id } satisfies Needs;
const OMNI = { format: omniBehavior.id } satisfies Needs;
const RERUN: Needs = { capability: 'rerun' };

interface Command {
  needs?: Needs;
  make(ctx: Ctx): Handler;
}

const verdict = (v: Verdict): Command => ({ make: (c) => (node, nodes) => verdictOnTargets(c.audit, v, node, nodes) });

export const COMMANDS: { readonly [id in CommandId]: Command } = {
  'personaLab.openBenchmark': { make: (c) => (arg) => openBenchmark(c.benchmarks, arg) },
  'personaLab.openWalkthrough': { make: () => () => openWalkthrough() },
  'personaLab.refresh': { needs: 'loads', make: (c) => () => refresh(c.benchmarks) },
  'personaLab.showDiagnostics': { needs: SPB, make: (c) => () => showDiagnostics(c.benchmarks.spb) },
  'personaLab.chooseRun': { needs: SPB, make: (c) => (arg) => chooseRun(c.benchmarks.spb, arg) },
  'personaLab.revealUser': { needs: SPB, make: (c) => (arg) => revealUser(c.tree.view, c.benchmarks.spb, arg) },
  'personaLab.copyUserId': { make: (c) => (node) => copyUserId(c.tree.view, node) },
  'personaLab.sortUsers': { needs: 'any', make: (c) => (node) => sortUsersBy(c.benchmarks, node) },
  'personaLab.filterTreeToSample': { needs: SPB, make: (c) => (arg) => filterTreeToSample(c.benchmarks.spb, arg) },
  'personaLab.clearSampleFilter': { make: (c) => () => clearSampleFilter(c.benchmarks.spb) },
  'personaLab.openStep': {
    needs: SPB,
    make: (c) => (arg, options) => openStep(c.stepViews, c.benchmarks.spb, arg, options),
  },
  'personaLab.nextStep': { make: (c) => () => navigate(c.stepViews, 'nextStep') },
  'personaLab.previousStep': { make: (c) => () => navigate(c.stepViews, 'previousStep') },
  'personaLab.nextUser': { make: (c) => () => navigate(c.stepViews, 'nextUser') },
  'personaLab.previousUser': { make: (c) => () => navigate(c.stepViews, 'previousUser') },
  'personaLab.openDashboard': { needs: SPB, make: (c) => () => c.dashboard.of(SPB.format)?.show() },
  'personaLab.openBenchmarkDashboard': { needs: 'any', make: (c) => (arg) => c.dashboard.open(arg) },
  'personaLab.compareRuns': { needs: SPB, make: (c) => (a, b) => c.compare.compareRuns(a, b) },
  'personaLab.compareMode.on': { needs: SPB, make: (c) => () => c.compare.setMode(true) },
  'personaLab.compareMode.off': { make: (c) => () => c.compare.setMode(false) },
  'personaLab.filterSteps': { needs: SPB, make: (c) => (arg) => filterSteps(spbLabels(c.labels).filter, arg) },
  'personaLab.clearStepFilter': { make: (c) => () => clearStepFilter(spbLabels(c.labels).filter) },
  'personaLab.nextUnlabelledStep': {
    needs: SPB,
    make: (c) => (arg) => nextUnlabelled(spbLabels(c.labels).filter, arg),
  },
  'personaLab.exportLabels': { make: (c) => (arg) => c.labels.files.exportLabels(arg) },
  'personaLab.importLabels': { make: (c) => (arg) => c.labels.files.importLabels(arg) },
  'personaLab.labelSummary': { make: (c) => () => c.labels.files.labelSummary() },
  'personaLab.editLabelSet': { make: (c) => () => c.labels.files.editLabelSet() },
  'personaLab.setLabelServerPassword': { make: (c) => () => setServerPassword(c.labels.service, c.secrets) },
  'personaLab.newLabelProject': { needs: 'any', make: (c) => () => c.labels.projects.create() },
  'personaLab.chooseLabelProject': { make: (c) => () => c.labels.projects.choose() },
  'personaLab.adjudicateLabels': { needs: 'any', make: (c) => (arg) => c.labels.adjudication.start(arg) },
  'personaLab.nextAssigned': { needs: 'any', make: (c) => (arg) => c.labels.projects.nextAssigned(arg) },
  'personaLab.newTemplate': { make: (c) => () => newTemplate(c.templates.library) },
  'personaLab.previewPrompt': {
    needs: SPB,
    make: (c) => (arg) => previewPrompt(c.benchmarks.spb, c.templates.library, c.templates.deps, arg),
  },
  'personaLab.newSample': { needs: SPB, make: (c) => () => newSampleCommand(c.experiments) },
  'personaLab.runTemplateOnSample': { needs: SPB, make: (c) => (arg) => runTemplateOnSample(c.experiments, arg) },
  'personaLab.diffExperimentTemplates': {
    needs: SPB,
    make: (c) => (node, nodes) => diffTemplates(c.experiments, node, nodes),
  },
  'personaLab.compareExperiment': { needs: SPB, make: (c) => (node) => compareExperiment(c.experiments, node) },
  'personaLab.promoteExperiment': { needs: SPB, make: (c) => (node) => promoteExperiment(c.experiments, node) },
  'personaLab.showExperimentTable': { needs: SPB, make: (c) => () => c.experiments.showTable() },
  'personaLab.runLongContextBaseline': { needs: SPB, make: (c) => () => runLongContextBaseline(c.experiments) },
  'personaLab.showLongContextTable': {
    needs: SPB,
    make: (c) => (node) => showLongContextTable(c.experiments, node),
  },
  'personaLab.rerunStep': { needs: SPB, make: (c) => (arg) => rerunStep(c.rerun, arg) },
  'personaLab.editPrompt': { needs: SPB, make: (c) => (arg) => editPrompt(c.rerun, arg) },
  'personaLab.sendDraft': { needs: RERUN, make: (c) => (arg) => sendAnyDraft(c, arg) },
  'personaLab.saveDraftAsTemplate': { needs: SPB, make: (c) => (arg) => saveDraftAsTemplate(c.rerun, arg) },
  'personaLab.rerunChain': { needs: SPB, make: (c) => (arg) => rerunChain(c.rerun, arg) },
  'personaLab.rerunPlatform': { needs: SPB, make: (c) => (arg) => rerunPlatforms(c.rerun, arg, false) },
  'personaLab.rerunBenchmark': { needs: SPB, make: (c) => (arg) => rerunPlatforms(c.rerun, arg, true) },
  'personaLab.runBatch': { needs: RERUN, make: (c) => (arg) => c.batches.run(arg) },
  'personaLab.resumeRun': { needs: 'loads', make: (c) => () => resumeRun(c.rerun) },
  'personaLab.rerunFailedRequests': { needs: SPB, make: (c) => (arg) => rerunFailed(c.rerun, arg) },
  'personaLab.runAblation': { needs: SPB, make: (c) => (arg) => runAblation(c.rerun, arg) },
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
  'personaLab.openTrace': { needs: OMNI, make: (c) => (arg) => openTrace(c.benchmarks.omni, c.traceView, arg) },
  'personaLab.chooseOmniRun': { needs: OMNI, make: (c) => (arg) => chooseOmniRun(c.benchmarks.omni, arg) },
  'personaLab.revealTestAction': { make: (c) => (arg) => revealTestAction(c.benchmarks.omni, c.tree.view, arg) },
  'personaLab.openOmniDashboard': { needs: OMNI, make: (c) => () => c.dashboard.of(OMNI.format)?.show() },
  'personaLab.rerunTestAction': { needs: OMNI, make: (c) => (arg) => rerunTestAction(c.omniRerun, arg) },
  'personaLab.editTestActionPrompt': {
    needs: OMNI,
    make: (c) => (arg, field) => editTestActionPrompt(c.omniRerun, arg, typeof field === 'string' ? field : undefined),
  },
  'personaLab.runTestActions': {
    needs: OMNI,
    make: (c) => (arg, name) => runTestActions(c.omniRerun, arg, typeof name === 'string' ? name : undefined),
  },
  'personaLab.judgeOmniRun': { needs: OMNI, make: (c) => (arg) => judgeOmniRun(c.omniRerun, c.secrets, arg) },
  'personaLab.setJudgeApiKey': { make: (c) => () => setJudgeKey(c.secrets) },
};

/** Ctrl+Enter in a draft: a kind a format's re-run registered (told apart by its header), else a step's. */
async function sendAnyDraft(c: Ctx, arg: unknown): Promise<void> {
  const doc =
    arg instanceof vscode.Uri ? await vscode.workspace.openTextDocument(arg) : vscode.window.activeTextEditor?.document;
  const kind = doc && draftKindOf(doc.getText());
  if (doc && kind) return kind.send(doc);
  return sendDraft(c.rerun, arg);
}

const NOT_OPEN = 'Persona Lab: no benchmark is open. Open a benchmark folder first.';

/** Whether what the command needs is there, once the loads in progress are done; says so when it is not. */
async function has(needs: Needs, benchmarks: Benchmarks): Promise<boolean> {
  await benchmarks.ready();
  if (needs === 'loads') return true;
  const open = benchmarks.all.filter((b) => b.bench);
  if (typeof needs === 'object' && 'format' in needs) {
    if (open.some((b) => b.format.id === needs.format)) return true;
    // The first format is the default one: without it, "no benchmark is open".
    const format = benchmarks.get(needs.format)?.format;
    if (format && format !== benchmarks.all[0]?.format) {
      void vscode.window.showInformationMessage(`Persona Lab: no ${format.label} benchmark is open.`);
      return false;
    }
  } else if (typeof needs === 'object') {
    if (open.some((b) => b.format.capabilities.includes(needs.capability))) return true;
  } else if (open.length > 0) return true;
  void vscode.window.showWarningMessage(NOT_OPEN);
  return false;
}

export function registerCommands(context: vscode.ExtensionContext, ctx: Ctx): void {
  for (const [id, command] of Object.entries(COMMANDS) as [CommandId, Command][]) {
    const handler = command.make(ctx);
    const needs = command.needs;
    const guarded: Handler = needs
      ? async (...args) => ((await has(needs, ctx.benchmarks)) ? handler(...args) : undefined)
      : handler;
    context.subscriptions.push(vscode.commands.registerCommand(id, guarded));
  }
}
