// OmniBehavior attempts and drafts: a draft reads back what it was written from and names each problem's line; the
// attempt store survives a reopen; an attempt's answers are compared with the run's (fixed, broken, lost, moved).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareAttempt, OmniAttemptStore, type AttemptAnswer } from '../../src/core/omni/run/attempts';
import { isOmniDraft, omniHistoryBlock, parseOmniDraft, renderOmniDraft } from '../../src/core/omni/run/draft';
import type { Prediction, Question } from '../../src/core/omni/types';

const dir = mkdtempSync(join(tmpdir(), 'pl-omni-attempts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('OmniBehavior drafts', () => {
  const draft = {
    userId: 'u_1',
    index: 12,
    field: 'video_liked',
    model: 'm',
    temperature: undefined,
    prompt: 'line one\n=== user ===\nline three',
  };
  it('round-trips, the prompt running to the end of the file', () => {
    const text = renderOmniDraft(draft, 'a source');
    expect(isOmniDraft(text)).toBe(true);
    expect(parseOmniDraft(text)).toEqual({ ok: true, draft });
    const warmer = parseOmniDraft(text.replace('temperature: source', 'temperature: 0.7'));
    expect(warmer.ok && warmer.draft.temperature).toBe(0.7);
  });
  it('names each problem with its line', () => {
    const text = renderOmniDraft(draft, 'a source')
      .replace('field: video_liked', 'field: video_loved')
      .replace('temperature: source', 'temperature: hot');
    const parsed = parseOmniDraft(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toEqual([
      { line: 5, message: 'field: "video_loved" is not a question field' },
      { line: 7, message: 'temperature: "hot" is not a number from 0 to 2 or "source"' },
    ]);
    expect(isOmniDraft('step: weibo/U_1/2\n=== system ===\n')).toBe(false);
  });
});

const answer = (
  field: string,
  type: AttemptAnswer['type'],
  t: number | string,
  p: number | string | null,
): AttemptAnswer => ({
  type,
  field,
  true_value: t,
  predicted_value: p,
  predicted_label: type === 'binary' && p !== null ? (Number(p) >= 0.5 ? 1 : 0) : null,
  raw_output: String(p),
  prompt_tokens: 0,
  completion_tokens: 0,
  attempts: 1,
  prompt: 'p',
  ...(field === 'video_watch_seconds' ? { video_duration: 100 } : {}),
});

const question = (field: string, type: Question['type'], t: number | string, p: number | string | null): Question => ({
  type,
  field,
  trueValue: t,
  predictedValue: p,
  predictedLabel: type === 'binary' && p !== null ? (Number(p) >= 0.5 ? 1 : 0) : null,
  rawOutput: '',
  ...(field === 'video_watch_seconds' ? { videoDuration: 100 } : {}),
});

describe('OmniBehavior attempts', () => {
  it('compares each answer with the run’s: fixed, broken, lost, new, and the graded error’s move', () => {
    const original: Prediction = {
      userId: 'u_1',
      index: 12,
      file: 'x',
      line: 1,
      questions: [
        question('video_liked', 'binary', 1, 0),
        question('video_shared', 'binary', 0, 0),
        question('video_commented', 'binary', 0, 0),
        question('video_watch_seconds', 'continuous', 50, 90),
      ],
    };
    const rows = compareAttempt({ normaliser: 100 }, original, {
      answers: [
        answer('video_liked', 'binary', 1, 1),
        answer('video_shared', 'binary', 0, 1),
        answer('video_commented', 'binary', 0, null),
        answer('video_watch_seconds', 'continuous', 50, 60),
        answer('video_followed', 'binary', 0, 0),
      ],
    });
    expect(rows.map((r) => [r.field, r.change])).toEqual([
      ['video_liked', 'fixed'],
      ['video_shared', 'broken'],
      ['video_commented', 'lost'],
      ['video_watch_seconds', 'same'],
      ['video_followed', 'new'],
    ]);
    expect(rows[3].delta).toBeCloseTo(0.1 - 0.4, 12);
    expect(rows[0].delta).toBeNull();
  });

  it('keeps attempts across a reopen, newest first, numbered on', () => {
    const path = join(dir, 'omni-attempts.jsonl');
    const base = {
      at: '2026-12-03T00:00:00Z',
      userId: 'u_1',
      index: 12,
      baseRun: null,
      source: { kind: 'template' as const, name: 's', id: 'i' },
      model: 'm',
      baseURL: 'http://127.0.0.1/v1',
      edited: null,
      answers: [answer('video_liked', 'binary', 1, 1)],
    };
    const a = OmniAttemptStore.open(path);
    a.add(base);
    a.add({ ...base, edited: 'video_liked' });
    a.add({ ...base, index: 13 });
    a.close();
    const b = OmniAttemptStore.open(path);
    expect(b.list('u_1', 12).map((x) => [x.id, x.edited])).toEqual([
      [2, 'video_liked'],
      [1, null],
    ]);
    expect(b.add(base).id).toBe(4);
    b.close();
  });
});

describe('an OmniBehavior draft opens at the part people edit', () => {
  it('folds the long history block and puts the cursor on the scene after it', () => {
    const draft = { userId: 'u_1', index: 12, field: 'video_liked', model: 'm', temperature: undefined, prompt: '' };
    const history = Array.from({ length: 40 }, (_, i) => `- 2024-01-${i} · video · title: clip ${i} → no reaction`);
    const prompt = [
      'Intro.',
      '',
      '## Recent activity (oldest first)',
      ...history,
      '',
      '## The scene',
      'video',
      '',
    ].join('\n');
    const text = renderOmniDraft({ ...draft, prompt }, 'a source');
    const lines = text.split('\n');
    const block = omniHistoryBlock(text)!;
    expect(lines[block.start]).toBe('## Recent activity (oldest first)');
    expect(lines[block.end]).toBe(history[history.length - 1]);
    expect(lines[block.edit]).toBe('## The scene');
    // A short prompt has nothing to fold.
    expect(omniHistoryBlock(renderOmniDraft({ ...draft, prompt: 'Intro.\n- one\n- two\n' }, 'a source'))).toBeNull();
  });
});
