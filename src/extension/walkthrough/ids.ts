// The walkthrough's names (package.json contributes.walkthroughs). No vscode import: a unit test compares them with
// package.json.

/** publisher.name of package.json, then `#` and the walkthrough's id: what workbench.action.openWalkthrough takes. */
export const WALKTHROUGH = 'persona-lab.persona-lab#personaLab.gettingStarted';

/** Raised for a moment when the labels change and the current author has one on the selected run (index.ts). */
export const LABELLED_CONTEXT = 'personaLab.walkthrough.labelled';
