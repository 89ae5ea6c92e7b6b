// A label chip's hover card on its key (webview/shared/labelChips.ts chipKeyText): while the adjudication pass shows,
// the keys it takes (every digit, g, u, .) decide for the pass, so the card must not say they toggle the label.
import { describe, expect, it } from 'vitest';
import { adjudicationTakes } from '../../src/shared/labelProtocol';
import { chipKeyText } from '../../webview/shared/labelChips';

describe('chipKeyText', () => {
  it('says the key toggles the label outside the adjudication pass', () => {
    expect(chipKeyText('1', 'the step', false)).toBe('Key 1 toggles it on the step.');
    expect(chipKeyText(null, 'the step', false)).toBe('No key: click to toggle.');
  });

  it('never says a key the pass takes toggles the label while the pass shows', () => {
    for (const key of ['1', '9', '0', 'g', 'u', '.']) {
      expect(adjudicationTakes(key)).toBe(true);
      const text = chipKeyText(key, 'the step', true);
      expect(text).not.toContain(`Key ${key} toggles`);
      expect(text).toContain('Click toggles it on the step');
      expect(text).toContain(`Key ${key} is the adjudication pass's`);
    }
  });

  it('keeps a key the pass leaves alone', () => {
    expect(adjudicationTakes('x')).toBe(false);
    expect(chipKeyText('x', 'the question', true)).toBe('Key x toggles it on the question.');
  });
});
