// The commands PersonaMem's tree rows run, registered with its question view (questionView.ts) and not contributed
// in package.json (only the rows run them). Apart from both ends so that the tree's nodes import no store.
export const OPEN_QUESTION_COMMAND = 'personaLab.personamem.openQuestion';
export const CHOOSE_RUN_COMMAND = 'personaLab.personamem.chooseRun';
