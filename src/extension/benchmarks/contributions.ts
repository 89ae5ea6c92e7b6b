// The formats the extension serves, in the Benchmarks view's order. Adding one is a line here.
import type { FormatContribution } from './contribution';
import { omniContribution } from './omni/contribution';
import { personaMemContribution } from './personamem/contribution';
import { spbContribution } from './spb/contribution';

export const CONTRIBUTIONS: readonly FormatContribution[] = [spbContribution, omniContribution, personaMemContribution];
