// PI on the pool's tag chips, in the real workbench: a tag of a copy of sample/ is edited to hold a phone number (a
// distractor the run did not pick, so no score moves); the step view marks it on its chip, as it marks a post, and
// counts it in the step's PI legend.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step, User } from '../../src/core/spb/types';
import { resultsDir } from './harness';
import { startSession, ui, type Session } from './rerunSession';

const TAG = '#联系我13912345678#';

describe('PI marks on pool tag chips, in the real workbench', () => {
  let session: Session;
  let user: User;
  let step: Step;
  let replaced = '';

  beforeAll(async () => {
    session = await startSession('persona-lab-pool-pi-', {}, (ws, bench, run) => {
      // The last weibo user with a step whose D_random holds a tag the run did not pick.
      for (const u of [...bench.users.get('weibo')!.values()].reverse()) {
        const picked = run.results.get('weibo')?.get(u.userId)?.steps;
        for (const s of u.steps) {
          const free = s.split.dRandom.find((t) => !(picked?.get(s.stepId)?.prediction ?? []).includes(t));
          if (free === undefined || replaced) continue;
          [user, step, replaced] = [u, s, free];
        }
      }
      const file = join(ws, user.file);
      const lines = readFileSync(file, 'utf8').split('\n');
      const row = JSON.parse(lines[user.ref.line - 1]) as {
        prediction_tasks: { candidate_pool: string[]; meta: Record<string, string[]> }[];
      };
      const task = row.prediction_tasks[step.index];
      const swap = (xs: string[]) => xs.map((t) => (t === replaced ? TAG : t));
      task.candidate_pool = swap(task.candidate_pool);
      task.meta.D_random = swap(task.meta.D_random);
      lines[user.ref.line - 1] = JSON.stringify(row);
      writeFileSync(file, lines.join('\n'));
    });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('marks the phone number on its chip, with the finding in the tooltip and in the legend', async () => {
    expect(replaced).not.toBe('');
    const frame = await ui(session.wb).openStep(user, step);
    const chip = frame.locator('.group[data-meta-key="D_random"] li.tag[data-pi="finding"]');
    expect(await chip.count()).toBe(1);
    expect(await chip.locator('.tag-text').textContent()).toBe(TAG);
    expect(await chip.getAttribute('class')).toContain('has-pi-finding');
    expect(await chip.getAttribute('title')).toMatch(/residual PI, not redacted: PHONE \(/);
    const mark = chip.locator('mark.pi-finding');
    expect(await mark.getAttribute('data-category')).toBe('PHONE');
    expect(await mark.textContent()).toBe('13912345678');
    // No other chip carries a mark, and the legend counts this one.
    expect(await frame.locator('.groups mark.pi').count()).toBe(1);
    expect(
      await frame.locator('.pi-legend [data-legend="finding"][data-category="PHONE"]').getAttribute('data-count'),
    ).toBe('1');
    await chip.screenshot({ path: join(resultsDir, 'pi-pool-chip.png') });
  });
});
