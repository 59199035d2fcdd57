/**
 * What one connection may send: `rate` frames a second with a burst of twice that (a token
 * bucket). A frame over the budget is refused; refusals add up in an excess counter that drains
 * at half the rate, and a connection whose excess passes three seconds' worth of frames is a
 * flood and is closed. So a burst of 3x`rate` frames beyond the budget is closed at once, and a
 * client that keeps sending twice the rate is closed six seconds after its burst is spent (about
 * eight from its start), although the bucket lets a frame through now and then. Pure, with the
 * time passed in.
 */

export interface FrameBudget {
  tokens: number;
  excess: number;
  at: number;
  /** the client was told it is rate limited (once per episode: until its excess has drained) */
  warned: boolean;
}

/** ok: take the frame; refused: drop it (`warn`: tell the client, the first time); flood: close the connection. */
export type FrameVerdict = { kind: 'ok' } | { kind: 'refused'; warn: boolean } | { kind: 'flood' };

export function newFrameBudget(rate: number, now: number): FrameBudget {
  return { tokens: 2 * rate, excess: 0, at: now, warned: false };
}

export function spendFrame(b: FrameBudget, rate: number, now: number): FrameVerdict {
  const dt = Math.max(0, now - b.at) / 1000;
  b.at = now;
  b.tokens = Math.min(2 * rate, b.tokens + dt * rate);
  b.excess = Math.max(0, b.excess - (dt * rate) / 2);
  if (b.excess === 0) b.warned = false;
  if (b.tokens >= 1) {
    b.tokens -= 1;
    return { kind: 'ok' };
  }
  b.excess += 1;
  if (b.excess > 3 * rate) return { kind: 'flood' };
  const warn = !b.warned;
  b.warned = true;
  return { kind: 'refused', warn };
}
