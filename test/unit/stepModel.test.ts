import { describe, expect, it } from 'vitest';
import { stepPiMarks } from '../../src/core/spb/pi/highlight';
import { buildStepModel, neighbours, wordDiff } from '../../src/core/spb/view/stepModel';
import type { Platform } from '../../src/core/spb/types';
import { isExtensionToWebview, isWebviewToExtension } from '../../src/shared/spb/stepViewProtocol';
import { fixture, model } from './stepModel-fixture';

describe('buildStepModel', () => {
  it('splits the pool into the six groups with hit / missed / wrong-pick marks', async () => {
    const m = model(await fixture(), 'weibo', 'we_0000000001', 1);
    expect(m.pool.groups.map((g) => [g.label, g.metaKey, g.positive])).toEqual([
      ['T_keep', 'T_keep', true],
      ['T_new', 'T_new', true],
      ['D_decay', 'D_decay', false],
      ['D_peer', 'D_cluster', false],
      ['D_viral', 'D_viral', false],
      ['D_random', 'D_random', false],
    ]);
    const marks = Object.fromEntries(m.pool.groups.map((g) => [g.label, g.tags.map((t) => `${t.tag}:${t.mark}`)]));
    expect(marks).toEqual({
      T_keep: ['#旅行#:hit', '#摄影#:missed'],
      T_new: ['#咖啡#:hit'],
      D_decay: ['#考研#:avoided', '#期末#:avoided'],
      D_peer: ['#风光摄影#:avoided', '#手冲#:wrongPick'],
      D_viral: ['#春晚#:avoided', '#热搜#:avoided'],
      D_random: ['#汽车#:avoided', '#股票#:avoided', '#宠物#:avoided'],
    });
    expect(m.pool.groups[0].tags[0].count).toBe(2);
    expect(m.pool.groups.map((g) => g.picked)).toEqual([1, 1, 0, 1, 0, 0]);
    expect(m.pool).toMatchObject({
      size: 12,
      k: 3,
      picks: 6,
      distinctPicks: 4,
      outOfPool: ['#不存在#'],
      duplicates: [{ tag: '#旅行#', count: 2 }],
      nonStrings: ['7'],
      invariants: [],
    });
    for (const g of m.pool.groups) expect(g.tooltip).toMatch(new RegExp(`^${g.label}`));
  });

  it('computes the metrics and the diagnostics, each with a tooltip, and flags stored metrics that disagree', async () => {
    const m = model(await fixture(), 'weibo', 'we_0000000001', 1);
    const byKey = Object.fromEntries(m.metrics.map((c) => [c.key, c]));
    expect(m.metrics.map((c) => c.label)).toEqual([
      'R',
      'R_stab',
      'R_nov',
      'Err_decay',
      'Err_peer',
      'Err_viral',
      'Err_random',
      'K',
      'δ',
      'B',
      'α',
      'ρ',
    ]);
    expect(byKey.Recall).toMatchObject({ value: 2 / 3, text: '66.7 %' });
    expect(byKey.Recall_Stability.value).toBe(0.5);
    expect(byKey.Recall_Novelty.value).toBe(1);
    expect(byKey.Error_Peer.value).toBe(0.5);
    expect(byKey.K).toMatchObject({ value: 3, text: '3' });
    expect(byKey.delta).toMatchObject({ value: 1, text: '1' });
    expect(byKey.budget).toMatchObject({ text: '0.67' });
    expect(byKey.alpha).toMatchObject({ text: '0.67' });
    expect(byKey.ratio).toMatchObject({ value: 2, text: '2.00' });
    for (const c of m.metrics) expect(c.tooltip.length).toBeGreaterThan(20);
    expect(m.storedMismatch).toEqual(['Recall: stored 0.5, recomputed 0.6666666666666666']);
    expect(m).toMatchObject({ hasResult: true, scored: true, run: 'run-a', reasoning: 'reason 1' });
  });

  it('reports undefined metrics as null with a dash (NaN is not JSON-safe)', async () => {
    const bench = await fixture();
    const user = bench.users.get('weibo')!.get('we_0000000001')!;
    const step = { ...user.steps[2], split: { ...user.steps[2].split, tNew: [], dRandom: [] } };
    const m = buildStepModel({ bench, user, step, run: bench.runs.get('run-a'), postsText: '' });
    const byKey = Object.fromEntries(m.metrics.map((c) => [c.key, c]));
    expect(byKey.Recall_Novelty).toMatchObject({ value: null, text: '—' });
    expect(byKey.Error_Random).toMatchObject({ value: null, text: '—' });
    expect(byKey.ratio).toMatchObject({ value: null, text: '—' });
    expect(byKey.Recall_Stability).toMatchObject({ value: 0.5, text: '50.0 %' });
    expect(byKey.alpha).toMatchObject({ value: 1, text: '1.00' });
  });

  it('threads the persona: cold start, received vs written, and an error step that writes none', async () => {
    const bench = await fixture();
    const s1 = model(bench, 'weibo', 'we_0000000001', 1);
    expect(s1.persona).toMatchObject({
      received: '',
      receivedFrom: null,
      written: '该用户是一名热爱摄影的大学生，关注旅行。',
    });
    expect(s1.persona.diff).toEqual([{ kind: 'added', text: '该用户是一名热爱摄影的大学生，关注旅行。' }]);
    const s2 = model(bench, 'weibo', 'we_0000000001', 2);
    expect(s2.persona).toMatchObject({ received: s1.persona.written, receivedFrom: 1, written: '', diff: null });
    expect(s2.reasoning).toBe('Error: timeout');
    const s3 = model(bench, 'weibo', 'we_0000000001', 3);
    expect(s3.persona.received).toBe(s1.persona.written);
    expect(s3.persona.receivedFrom).toBe(1);
    const changed = s3.persona.diff!.filter((d) => d.kind !== 'same').map((d) => `${d.kind}:${d.text}`);
    // Whole words, not single characters: 大学生 -> 研究生 is one replaced word.
    expect(changed).toEqual(['added:风光', 'removed:大学生', 'added:研究生']);
    expect(s3.persona).toMatchObject({ added: 2, removed: 1 });
  });

  it('marks nothing when the run has no result for the step, and flags steps without positives', async () => {
    const bench = await fixture();
    const none = model(bench, 'douban', 'do_0000000001', 1);
    expect(none.hasResult).toBe(false);
    expect(none.pool.groups.flatMap((g) => g.tags.map((t) => t.mark))).toEqual(Array(12).fill('none'));
    expect(none.metrics.every((c) => c.value === null && c.text === '—')).toBe(true);
    expect(none.persona).toMatchObject({ received: '', written: '', diff: null });
    const noRun = model(bench, 'weibo', 'we_0000000001', 1, null);
    expect(noRun).toMatchObject({ run: null, hasResult: false });
    const unscored = model(bench, 'weibo', 'we_0000000002', 1);
    expect(unscored.scored).toBe(false);
    expect(unscored.pool.invariants).toEqual(['|C+| / |C| = 0 / 9, not 25 %']);
    expect(unscored.header.bio).toBe('');
  });

  it('builds the header and the post cards, marking batch tags that are also in the pool', async () => {
    const m = model(await fixture(), 'weibo', 'we_0000000001', 2);
    expect(m.header).toEqual({
      platform: 'weibo',
      userId: 'we_0000000001',
      username: 'U_0a1b2c3d',
      bio: '爱拍照',
      stepId: 2,
      totalSteps: 3,
      dateInput: '2024-03-02',
      dateTarget: '2024-03-12',
      userIndex: 1,
      userCount: 3,
    });
    expect(m.postsOk).toBe(true);
    expect(m.posts).toEqual([
      {
        index: 1,
        content: '今天去拍了日落',
        fields: [],
        tags: [
          { tag: '#摄影#', inPool: 'T_keep' },
          { tag: '#日落#', inPool: null },
        ],
      },
      {
        index: 2,
        content: '第一行\n第二行',
        fields: [{ label: 'Title', value: '周末' }],
        tags: [{ tag: '#旅行#', inPool: 'T_keep' }],
      },
    ]);
  });

  it('flags broken invariants (overlapping classes, pool vs meta)', async () => {
    const bench = await fixture();
    const user = bench.users.get('weibo')!.get('we_0000000001')!;
    const step = {
      ...user.steps[0],
      pool: [...user.steps[0].pool.slice(1), '#多余#'],
      split: { ...user.steps[0].split, dDecay: ['#考研#', '#期末#', '#旅行#'] },
    };
    const m = buildStepModel({ bench, user, step, run: bench.runs.get('run-a'), postsText: '' });
    expect(m.pool.invariants).toEqual([
      '"#旅行#" is in both T_keep and D_decay',
      `${JSON.stringify(user.steps[0].pool[0])} is in meta but not in candidate_pool`,
      '"#多余#" is in candidate_pool but in no meta class',
    ]);
    expect(m.pool.groups[2].tags.find((t) => t.tag === '#旅行#')!.mark).toBe('wrongPick');
    expect(m.postsOk).toBe(false);
  });

  it('is JSON-safe: a model survives postMessage serialisation unchanged and passes the webview guard', async () => {
    const bench = await fixture();
    const cases = [
      ['weibo', 'we_0000000001', 1, null],
      ['weibo', 'we_0000000001', 3, 'run-a'],
      ['douban', 'do_0000000001', 1, null],
    ] as const;
    for (const [p, u, s, pinnedRun] of cases) {
      const m = model(bench, p, u, s);
      const msg = {
        type: 'show',
        model: m,
        nav: { previousStep: false, nextStep: true, previousUser: false, nextUser: true },
        pi: stepPiMarks(m),
        pinnedRun,
      };
      const copy: unknown = JSON.parse(JSON.stringify(msg));
      expect(copy).toEqual(msg);
      expect(isExtensionToWebview(copy)).toBe(true);
    }
  });
});

describe('wordDiff', () => {
  it('diffs Chinese by words and Latin text by spaces', () => {
    const d = wordDiff('关注旅行和美食，偶尔分享 Python 编程', '关注旅行与咖啡，经常分享 Rust 编程')!;
    expect(d.filter((p) => p.kind !== 'same').map((p) => `${p.kind}:${p.text.trim()}`)).toEqual([
      'removed:和美食',
      'added:与咖啡',
      'removed:偶尔',
      'added:经常',
      'removed:Python',
      'added:Rust',
    ]);
    expect(
      d
        .filter((p) => p.kind !== 'added')
        .map((p) => p.text)
        .join(''),
    ).toBe('关注旅行和美食，偶尔分享 Python 编程');
    expect(
      d
        .filter((p) => p.kind !== 'removed')
        .map((p) => p.text)
        .join(''),
    ).toBe('关注旅行与咖啡，经常分享 Rust 编程');
  });
});

describe('neighbours', () => {
  it('moves through steps within a user and through users across platforms, skipping users without steps', async () => {
    const bench = await fixture();
    const at = (platform: Platform, userId: string, stepId: number) => ({ platform, userId, stepId });
    expect(neighbours(bench, at('weibo', 'we_0000000001', 1))).toEqual({
      previousStep: null,
      nextStep: at('weibo', 'we_0000000001', 2),
      previousUser: null,
      nextUser: at('weibo', 'we_0000000002', 1),
    });
    expect(neighbours(bench, at('weibo', 'we_0000000001', 3)).nextStep).toBeNull();
    expect(neighbours(bench, at('weibo', 'we_0000000001', 3)).previousStep).toEqual(at('weibo', 'we_0000000001', 2));
    // we_0000000003 has no steps: skipped on the way to the next platform (PLATFORMS order: weibo ... douban).
    expect(neighbours(bench, at('weibo', 'we_0000000002', 1)).nextUser).toEqual(at('douban', 'do_0000000001', 1));
    expect(neighbours(bench, at('douban', 'do_0000000001', 2))).toEqual({
      previousStep: at('douban', 'do_0000000001', 1),
      nextStep: null,
      previousUser: at('weibo', 'we_0000000002', 1),
      nextUser: null,
    });
    expect(neighbours(bench, at('weibo', 'we_9999999999', 1))).toEqual({
      previousStep: null,
      nextStep: null,
      previousUser: null,
      nextUser: null,
    });
  });

  it('walks users in the order the tree lists them when given one (Sort Users By…)', async () => {
    const bench = await fixture();
    const at = (platform: Platform, userId: string, stepId: number) => ({ platform, userId, stepId });
    const reversed = (p: Platform) => [...(bench.users.get(p)?.keys() ?? [])].reverse();
    const n = neighbours(bench, at('weibo', 'we_0000000002', 1), reversed);
    expect([n.previousUser, n.nextUser]).toEqual([null, at('weibo', 'we_0000000001', 1)]);
    // At the first user of the reversed weibo list, the previous platform's last user in its own order comes before.
    expect(neighbours(bench, at('douban', 'do_0000000001', 1), reversed).previousUser).toEqual(
      at('weibo', 'we_0000000001', 1),
    );
  });
});

describe('step view protocol guards', () => {
  it('accepts the webview messages and rejects anything else', () => {
    expect(isWebviewToExtension({ type: 'ready' })).toBe(true);
    expect(isWebviewToExtension({ type: 'navigate', direction: 'nextUser' })).toBe(true);
    expect(isWebviewToExtension({ type: 'openSource', which: 'result' })).toBe(true);
    for (const bad of [
      null,
      'ready',
      [],
      {},
      { type: 'navigate' },
      { type: 'navigate', direction: 'up' },
      { type: 'openSource', which: 'x' },
      { type: 'eval', code: '1' },
    ]) {
      expect(isWebviewToExtension(bad)).toBe(false);
    }
  });

  it('rejects malformed extension messages', async () => {
    const bench = await fixture();
    expect(isExtensionToWebview({ type: 'empty', message: 'x' })).toBe(true);
    expect(isExtensionToWebview({ type: 'empty' })).toBe(false);
    expect(isExtensionToWebview({ type: 'show', model: {}, nav: {} })).toBe(false);
    const m = model(bench, 'weibo', 'we_0000000001', 1);
    const good = JSON.parse(
      JSON.stringify({
        type: 'show',
        model: m,
        nav: { previousStep: false, nextStep: true, previousUser: false, nextUser: true },
        pi: stepPiMarks(m),
        pinnedRun: null,
      }),
    );
    expect(isExtensionToWebview(good)).toBe(true);
    // Without pinnedRun, or with one of the wrong type, a `show` is refused.
    expect(isExtensionToWebview({ ...good, pinnedRun: undefined })).toBe(false);
    expect(isExtensionToWebview({ ...good, pinnedRun: 3 })).toBe(false);
    // Without its PI marks, or with marks of the wrong shape, a `show` is refused.
    expect(isExtensionToWebview({ ...good, pi: undefined })).toBe(false);
    expect(
      isExtensionToWebview({ ...good, pi: { fields: { bio: 'x' }, legend: [], placeholders: 0, findings: 0 } }),
    ).toBe(false);
    expect(isExtensionToWebview({ ...good, pi: { fields: {}, legend: [], placeholders: 0, findings: 0 } })).toBe(true);
    expect(isExtensionToWebview({ type: 'html', html: '<b>' })).toBe(false);
  });
});
