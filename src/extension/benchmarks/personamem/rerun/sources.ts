// Where PersonaMem requests come from in the workbench: the checkout of the PersonaMem repository through its Python
// driver (inference.py), else Persona Lab's template, named so; the choosing (trust, the setting naming the checkout,
// restarts) is the re-runs' own (rerun/referenceSources.ts).
import {
  findPmReferenceCheckout,
  isPmReferenceCheckout,
  PM_REFERENCE_FILE,
  pmReferenceHash,
  pmReferenceSource,
} from '../../../../core/personamem/reference/source';
import { pmTemplateSource, type PmRequestSource } from '../../../../core/personamem/run/source';
import { ReferenceSources } from '../../../rerun/referenceSources';

export class PmSources extends ReferenceSources<PmRequestSource> {
  constructor(benchRoot: () => string | undefined) {
    super(
      {
        logName: 'personamem reference',
        noun: 'request',
        file: PM_REFERENCE_FILE,
        isCheckout: isPmReferenceCheckout,
        find: (from, within) => findPmReferenceCheckout(from, within),
        hash: pmReferenceHash,
        start: (checkout, options) => pmReferenceSource(checkout, options),
        fallback: pmTemplateSource,
      },
      benchRoot,
    );
  }
}
