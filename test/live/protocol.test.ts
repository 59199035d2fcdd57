import { describe, expect, it } from 'vitest';
import { breakingTopics, isTopic, parseFrame, storyTopics } from '../../src/api/live/protocol.js';

describe('live protocol', () => {
  it.each([
    ['breaking', true],
    ['breaking:eu', true],
    ['breaking:global', true],
    ['breaking:mars', false],
    ['feed:us:technology', true],
    ['feed:global:top', true],
    ['feed:us', false],
    ['feed:us:cooking', false],
    ['story:st_AbC-12', true],
    ['story:', false],
    ['story:..', false],
    ['story:a/b', false],
    ['Breaking', false],
    ['', false],
  ])('topic %j is valid: %s', (t, ok) => {
    expect(isTopic(t)).toBe(ok);
  });

  it.each([
    ['{"type":"subscribe","topics":["breaking","breaking","feed:us:top"]}', { type: 'subscribe', topics: ['breaking', 'feed:us:top'] }],
    ['{"type":"unsubscribe","topics":["story:x1"]}', { type: 'unsubscribe', topics: ['story:x1'] }],
    ['{"type":"ping"}', { type: 'ping' }],
    ['{"type":"subscribe","topics":[]}', 'invalid_topics'],
    ['{"type":"subscribe","topics":"breaking"}', 'invalid_topics'],
    ['{"topics":["breaking"]}', 'invalid_frame'],
    ['null', 'invalid_frame'],
    ['"subscribe"', 'invalid_frame'],
    ['{', 'invalid_json'],
  ])('parses %s', (frame, want) => {
    const got = parseFrame(Buffer.from(frame), false, 4096);
    if (typeof want === 'string') expect('error' in got && got.error.code).toBe(want);
    else expect(got).toEqual(want);
  });

  it('refuses binary and oversized frames before parsing them', () => {
    expect(parseFrame(new Uint8Array([123, 125]), true, 4096)).toMatchObject({ error: { code: 'binary_frame' } });
    expect(parseFrame('{"type":"ping"}', false, 5)).toMatchObject({ error: { code: 'frame_too_large' } });
  });

  it('clips and escapes what it echoes of a bad topic', () => {
    const got = parseFrame(JSON.stringify({ type: 'subscribe', topics: [`x\u0000${'y'.repeat(200)}`] }), false, 4096);
    expect('error' in got && got.error.message).toMatch(/^unknown topic "x\?y+…"/);
  });

  it('names the topics of a story and of a breaking story', () => {
    expect(storyTopics('s1', 'science', ['eu', 'uk'])).toEqual([
      'feed:global:top', 'feed:global:science', 'feed:eu:top', 'feed:eu:science', 'feed:uk:top', 'feed:uk:science', 'story:s1',
    ]);
    expect(storyTopics('s2', null, [])).toEqual(['feed:global:top', 'story:s2']);
    expect(breakingTopics(['us', 'global', 'nowhere'])).toEqual(['breaking', 'breaking:global', 'breaking:us']);
  });
});
