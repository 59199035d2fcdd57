import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/runtime/clock.js';
import { MemberTable, Membership, type MemberEvent } from '../../src/runtime/membership.js';
import { InProcessBus } from '../../src/runtime/transport-local.js';

type Step = ['heard', string, string, number] | ['left', string, string] | ['expire', number];

describe('MemberTable', () => {
  it.each<[string, Step[], MemberEvent[], string[]]>([
    ['a new node joins', [['heard', 'b', 'i1', 0]], [{ type: 'join', node: 'b' }], ['a', 'b']],
    ['a second heartbeat is no event', [['heard', 'b', 'i1', 0], ['heard', 'b', 'i1', 900]], [{ type: 'join', node: 'b' }], ['a', 'b']],
    ['its own heartbeat is ignored', [['heard', 'a', 'x', 0]], [], ['a']],
    ['silent past the expiry: gone', [['heard', 'b', 'i1', 0], ['expire', 3001]], [{ type: 'join', node: 'b' }, { type: 'leave', node: 'b', reason: 'expired' }], ['a']],
    ['silent exactly the expiry: still there', [['heard', 'b', 'i1', 0], ['expire', 3000]], [{ type: 'join', node: 'b' }], ['a', 'b']],
    ['heard again in time: stays', [['heard', 'b', 'i1', 0], ['heard', 'b', 'i1', 2500], ['expire', 5000]], [{ type: 'join', node: 'b' }], ['a', 'b']],
    ['goodbye: gone at once', [['heard', 'b', 'i1', 0], ['left', 'b', 'i1']], [{ type: 'join', node: 'b' }, { type: 'leave', node: 'b', reason: 'left' }], ['a']],
    ['a late goodbye of an earlier incarnation is ignored', [['heard', 'b', 'i2', 0], ['left', 'b', 'i1']], [{ type: 'join', node: 'b' }], ['a', 'b']],
    [
      'a restarted node (new incarnation) leaves and joins again',
      [['heard', 'b', 'i1', 0], ['heard', 'b', 'i2', 100]],
      [{ type: 'join', node: 'b' }, { type: 'leave', node: 'b', reason: 'expired' }, { type: 'join', node: 'b' }],
      ['a', 'b'],
    ],
  ])('%s', (_name, steps, events, live) => {
    const t = new MemberTable('a', 3000);
    const got: MemberEvent[] = [];
    for (const s of steps) {
      if (s[0] === 'heard') got.push(...t.heard(s[1], s[2], s[3]));
      else if (s[0] === 'left') got.push(...t.left(s[1], s[2]));
      else got.push(...t.expire(s[1]));
    }
    expect(got).toEqual(events);
    expect(t.live()).toEqual(live);
  });
});

describe('MemberTable.liveFor', () => {
  it.each<[string, string[] | null, [string, string[] | null][], string, string[]]>([
    ['every node takes every kind by default', null, [['b', null], ['c', null]], 'dedup', ['a', 'b', 'c']],
    ['an ingest-only node takes publisher shards', ['publisher'], [['b', ['dedup', 'story']]], 'publisher', ['a']],
    ['... and not dedup shards', ['publisher'], [['b', ['dedup', 'story']]], 'dedup', ['b']],
    ['an api-only node takes none', [], [['b', null]], 'story', ['b']],
    ['nobody takes a kind', [], [['b', []]], 'story', []],
  ])('%s', (_name, selfKinds, others, kind, want) => {
    const t = new MemberTable('a', 3000, selfKinds);
    for (const [node, kinds] of others) t.heard(node, 'i', 0, kinds);
    expect(t.liveFor(kind)).toEqual(want);
    expect(t.live()).toEqual(['a', ...others.map((o) => o[0])].sort());
  });
});

/** let the bus's setImmediate hops run */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

describe('Membership over a transport', () => {
  it('learns the cluster within a round trip, expires the silent and drops the departed', async () => {
    const bus = new InProcessBus();
    const clock = new ManualClock(0);
    // n3's transport can die: from then on nothing it publishes arrives (a crash, no goodbye)
    let n3Dead = false;
    const n3 = bus.connect('n3');
    const n3Publish = n3.publish.bind(n3);
    n3.publish = (topic, data) => (n3Dead ? undefined : n3Publish(topic, data));
    const nodes = [new Membership(bus.connect('n1'), { intervalMs: 1000, clock }), new Membership(bus.connect('n2'), { intervalMs: 1000, clock }), new Membership(n3, { intervalMs: 1000, clock })];
    const seen: string[] = [];
    nodes[0]!.on((e, live) => seen.push(`${e.type}:${e.node}:${live.join(',')}`));
    for (const m of nodes) m.start();
    await settle();
    // hello + immediate answers: everyone knows everyone before the first interval passes
    for (const m of nodes) expect(m.members()).toEqual(['n1', 'n2', 'n3']);

    // n3 goes silent; the others keep beating
    n3Dead = true;
    for (let t = 0; t < 4; t++) {
      clock.advance(1000);
      await settle();
    }
    expect(nodes[0]!.members()).toEqual(['n1', 'n2']);
    expect(nodes[1]!.members()).toEqual(['n1', 'n2']);

    // n2 stops cleanly: gone at once, no waiting for expiry
    await nodes[1]!.stop();
    await settle();
    expect(nodes[0]!.members()).toEqual(['n1']);
    expect(seen).toEqual([
      'join:n2:n1,n2',
      'join:n3:n1,n2,n3',
      'leave:n3:n1,n2',
      'leave:n2:n1',
    ]);
    await nodes[0]!.stop();
  });

  it('ignores malformed heartbeats', async () => {
    const bus = new InProcessBus();
    const m = new Membership(bus.connect('n1'), { intervalMs: 1000, clock: new ManualClock(0) });
    m.start();
    const rogue = bus.connect('x');
    for (const bad of [null, 1, 'hi', { node: 5 }, { node: 'y' }, { incarnation: 'z' }]) rogue.publish('members', bad);
    await settle();
    expect(m.members()).toEqual(['n1']);
    await m.stop();
  });
});
