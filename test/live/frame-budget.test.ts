import { describe, expect, it } from 'vitest';
import { newFrameBudget, spendFrame } from '../../src/api/live/frame-budget.js';

/** Frames at a steady pace against a budget of `rate` a second: what happens to each. */
function run(rate: number, perSecond: number, frames: number) {
  const b = newFrameBudget(rate, 0);
  const out = { ok: 0, refused: 0, warned: 0, closedAt: -1 };
  for (let i = 0; i < frames; i++) {
    const v = spendFrame(b, rate, (i * 1000) / perSecond);
    if (v.kind === 'ok') out.ok++;
    else if (v.kind === 'refused') (out.refused++, v.warn && out.warned++);
    else {
      out.closedAt = i;
      break;
    }
  }
  return out;
}

describe('frame budget', () => {
  it.each([
    // [what, rate, frames a second, frames sent, closed at frame (-1: never)]
    ['at the rate, never refused', 20, 20, 2_000, -1],
    ['a little over it, refused now and then but never closed', 20, 28, 2_000, -1],
    // its burst lasts 2 s (40 frames, refilled at 20/s), then the excess grows by 10 a second past 60: 6 s more
    ['at twice the rate, closed after about eight seconds', 20, 40, 2_000, 40 * 2 + 40 * 6],
    ['a burst far beyond it, closed at once', 20, 1_000_000, 2_000, 40 + 61 - 1],
  ])('%s', (_what, rate, perSecond, frames, closedAt) => {
    const r = run(rate, perSecond, frames);
    if (closedAt < 0) expect(r.closedAt).toBe(-1);
    else expect(Math.abs(r.closedAt - closedAt)).toBeLessThanOrEqual(closedAt * 0.05);
  });

  it('tells the client once per episode: again only after its excess has drained', () => {
    const b = newFrameBudget(5, 0);
    const verdicts: string[] = [];
    for (let i = 0; i < 12; i++) {
      const v = spendFrame(b, 5, 0);
      verdicts.push(v.kind === 'refused' ? (v.warn ? 'warn' : 'refused') : v.kind);
    }
    expect(verdicts).toEqual([...Array(10).fill('ok'), 'warn', 'refused']);
    // two refusals drain at 2.5 a second: gone after 0.8 s; a token is back by then as well
    expect(spendFrame(b, 5, 900).kind).toBe('ok');
    for (let i = 0; i < 3; i++) expect(spendFrame(b, 5, 900).kind).toBe('ok');
    expect(spendFrame(b, 5, 900)).toEqual({ kind: 'refused', warn: true });
  });
});
