// PersonaMem's part of the labels: labels on questions (targets.ts), the question view's labels bar
// (controller.ts), badges on the question rows of the Benchmarks tree (badges.ts), labelling projects over
// questions and the Label Summary's rows opening in the question view (project.ts).
import type * as vscode from 'vscode';
import type { LabelHost, LabelPart } from '../../../labels/part';
import { questionPanelOf } from '../questionView';
import type { PersonaMemStore } from '../store';
import { questionTreeBadges } from './badges';
import { QuestionLabelController } from './controller';
import { questionOpener, questionProjectSource } from './project';
import { PmLabelTargets } from './targets';

export function personaMemLabelPart(store: PersonaMemStore, { labels }: LabelHost): LabelPart {
  const panel = questionPanelOf(store);
  if (!panel) throw new Error('PersonaMem labels need the question view');
  const targets = new PmLabelTargets(store, labels);
  const controller = new QuestionLabelController(panel, targets, labels);
  const badges: vscode.Disposable = store.tree.setBadges(questionTreeBadges(labels, targets));
  return {
    project: questionProjectSource(labels, store, panel),
    unitOpener: (ref) => (ref.benchmark === labels.benchmarkOf(store) ? questionOpener(store, panel, ref) : undefined),
    dispose: () => (controller.dispose(), badges.dispose()),
  };
}
