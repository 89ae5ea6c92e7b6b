// The walkthrough's names (package.json contributes.walkthroughs). No vscode import: a unit test compares them with
// package.json.

/** publisher.name of package.json, then `#` and the walkthrough's id: what workbench.action.openWalkthrough takes. */
export const WALKTHROUGH = 'persona-lab.persona-lab#personaLab.gettingStarted';

/** True once the current author has a label on the selected run: ticks the walkthrough's labelling step. */
export const LABELLED_CONTEXT = 'personaLab.walkthrough.labelled';
