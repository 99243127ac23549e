import { describe, expect, it } from 'vitest';

import { PoisonEventError } from '../../src/hub/errors';
import { decodeTableKey, encodeTableKey } from '../../src/sinks/tableKeys';

// eslint-disable-next-line no-control-regex
const forbidden = /[/\\#?\u0000-\u001f\u007f-\u009f]/;

describe('table keys built from event content', () => {
  it('leaves the ids the reading schema allows as they are, so existing rows keep their keys', () => {
    for (const id of ['home-1', 'door_2', 'A9', 'x'.repeat(64)]) expect(encodeTableKey(id)).toBe(id);
  });

  it.each([
    'a/b',
    'a\\b',
    'a#b',
    'a?b',
    'a\u0001b',
    'tab\there',
    'del\u007f',
    'nel\u0085',
    'é/ü',
    '~',
    'a~002fb',
  ])('makes %j safe for the key rules and gives it back unchanged', (id) => {
    const key = encodeTableKey(id);
    expect(key).not.toMatch(forbidden);
    expect(decodeTableKey(key)).toBe(id);
  });

  it('never gives two ids one key', () => {
    const ids = ['a/b', 'a~002fb', 'a~b', 'a~~b', 'a_b', 'a-b', 'a.b'];
    expect(new Set(ids.map(encodeTableKey)).size).toBe(ids.length);
  });

  it('refuses an id whose key would exceed the 1 KiB limit, as a poison event', () => {
    expect(encodeTableKey('a'.repeat(512))).toHaveLength(512);
    expect(() => encodeTableKey('a'.repeat(513))).toThrow(PoisonEventError);
    expect(() => encodeTableKey('/'.repeat(103))).toThrow(/515 characters once encoded/);
  });
});
