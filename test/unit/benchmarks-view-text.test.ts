import { describe, expect, it } from 'vitest';
import { omniRowDescription } from '../../src/extension/benchmarks/omni/rowText';
import { benchmarksViewDescription, rowName, type OpenState } from '../../src/extension/benchmarks/viewText';

const spb = (o: Partial<OpenState> = {}): OpenState => ({
  label: 'StreamProfileBench',
  loaded: true,
  loading: false,
  run: 'demo-llm',
  ...o,
});
const omni = (o: Partial<OpenState> = {}): OpenState => spb({ label: 'OmniBehavior', run: 'demo-sim', ...o });

describe("the Benchmarks view's description", () => {
  it('names the run its figures are for', () => {
    expect(benchmarksViewDescription([spb(), omni({ loaded: false, run: undefined })])).toBe('run: demo-llm');
    expect(benchmarksViewDescription([spb({ loaded: false }), omni()])).toBe('run: demo-sim');
  });

  it("names each open benchmark's run in the view's order, and says when one has none", () => {
    expect(benchmarksViewDescription([spb({ run: 'random' }), omni()])).toBe('runs: random · demo-sim');
    expect(benchmarksViewDescription([spb({ run: undefined })])).toBe('run: no run');
  });

  it('says what is loading, over the runs', () => {
    expect(benchmarksViewDescription([spb(), omni({ loading: true })])).toBe('loading OmniBehavior…');
    expect(benchmarksViewDescription([spb({ loading: true, loaded: false }), omni({ loading: true })])).toBe(
      'loading StreamProfileBench and OmniBehavior…',
    );
  });

  it('is empty when no benchmark is open', () => {
    expect(benchmarksViewDescription([spb({ loaded: false }), omni({ loaded: false })])).toBe('');
  });
});

describe("the benchmark row's name", () => {
  it('keeps a folder name of up to 14 characters as it is', () => {
    expect(rowName('sample')).toBe('sample');
    expect(rowName('omnibehavior')).toBe('omnibehavior');
    expect(rowName('a'.repeat(14))).toBe('a'.repeat(14));
  });

  it('cuts a longer one to 14 at a word break and keeps its generated end', () => {
    expect(rowName('persona-lab-walkthrough-g1hUdX')).toBe('persona…hUdX');
    expect(rowName('persona-lab-walk-1280-NuxvpF')).toBe('persona…xvpF');
    expect(rowName('averyveryverylongfoldernamewithoutbreaks')).toBe('averyvery…eaks');
    expect(rowName('StreamProfileBench')).toBe('StreamPro…ench');
    expect(rowName('a'.repeat(15))).toBe(`${'a'.repeat(9)}…aaaa`);
    for (const name of ['StreamProfileBench', 'x'.repeat(40)]) expect(rowName(name).length).toBe(14);
    expect(rowName('persona-lab-walkthrough-g1hUdX').length).toBeLessThan(14);
  });
});

describe("the OmniBehavior row's description", () => {
  it('gives the figure first, then the run, the format and a user order that is not the file’s', () => {
    expect(omniRowDescription('demo-sim', 61.234)).toBe('overall 61.2 · run: demo-sim · OmniBehavior');
    // Rounded as the dashboard and the CLI round it: an exact tie goes to even, as Python's format does.
    expect(omniRowDescription('demo-sim', 61.25)).toBe('overall 61.2 · run: demo-sim · OmniBehavior');
    expect(omniRowDescription('demo-sim', undefined, 'labelled first')).toBe(
      'overall — · run: demo-sim · OmniBehavior · labelled first',
    );
    expect(omniRowDescription(undefined, undefined)).toBe('no run · OmniBehavior');
  });
});
