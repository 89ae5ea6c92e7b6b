// What StreamProfileBench's run files (the shared journal and manifest of core/runner) are checked and keyed by: its
// platforms are the partitions, and a template is known by the hash of its text.
import type { ManifestRules } from '../../runner/manifest';
import { templateHash, templateId } from '../prompt/prompt';
import { isPlatform, type Platform } from '../types';

export const SPB_RUN_FILES: ManifestRules<Platform> = {
  isPartition: isPlatform,
  templateKey: (template) => ({ hash: templateHash(template), id: templateId(template) }),
};
