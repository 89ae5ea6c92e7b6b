// Where OmniBehavior requests come from in the workbench: the checkout of the OmniBehavior repository through its
// Python driver (prompt_builder.py), else Persona Lab's own prompt; the choosing is rerun/referenceSources.ts.
import {
  findOmniReferenceCheckout,
  isOmniReferenceCheckout,
  omniReferenceHash,
  omniReferenceSource,
} from '../../../../core/omni/reference/source';
import type { OmniPromptSource } from '../../../../core/omni/run/source';
import { omniTemplateSource } from '../../../../core/omni/run/template';
import { ReferenceSources } from '../../../rerun/referenceSources';

export class OmniSources extends ReferenceSources<OmniPromptSource> {
  constructor(benchRoot: () => string | undefined) {
    super(
      {
        logName: 'omni reference',
        noun: 'prompt',
        file: 'prompt_builder.py',
        isCheckout: isOmniReferenceCheckout,
        find: (from, within) => findOmniReferenceCheckout(from, within),
        hash: omniReferenceHash,
        start: (checkout, options) => omniReferenceSource(checkout, options),
        fallback: omniTemplateSource,
      },
      benchRoot,
    );
  }
}
