// Each format's glossary, listed once as the registry (./index.ts) lists the descriptors. Apart from them so that views
// and pages read the terms without loading any format's reader; a format that prints terms of its own adds a line.
import { OMNI_GLOSSARY } from '../omni/glossary';
import { SPB_GLOSSARY } from '../spb/glossary';
import type { FormatGlossary } from '../glossaryTerm';

export const FORMAT_GLOSSARIES: readonly FormatGlossary[] = [SPB_GLOSSARY, OMNI_GLOSSARY];
