import { describe, expect, it } from 'vitest';

import { parseSwitchOutcome, UNREADABLE_SWITCH_OUTCOME } from '../../src/control/parseSwitchOutcome';

const unreadable = (disabled: boolean) => ({
  kind: 'failed',
  disabled,
  code: UNREADABLE_SWITCH_OUTCOME,
  retryable: false,
  message: expect.stringMatching(/^the outcome of switching the trigger could not be read: /) as unknown,
});

describe('a stored switch outcome', () => {
  it.each([
    ['switched', { kind: 'switched', disabled: true }, true, { kind: 'switched', disabled: true }],
    ['soft', { kind: 'soft', disabled: false }, false, { kind: 'soft', disabled: false }],
    [
      'failed',
      { kind: 'failed', disabled: true, code: 'TRIGGER_SWITCH_PERMISSION', retryable: false, message: '403' },
      true,
      { kind: 'failed', disabled: true, code: 'TRIGGER_SWITCH_PERMISSION', retryable: false, message: '403' },
    ],
  ])('in the current shape (%s) reads as it is', (_what, stored, disabled, expected) => {
    expect(parseSwitchOutcome(stored, disabled)).toEqual(expected);
  });

  it.each([
    ['a switch through ARM', { ok: true, soft: false }, true],
    ['a soft switch (local mode)', { ok: true, soft: true }, false],
    ['a permanent failure', { ok: false, permanent: true, code: 'HELD_BY_MAINTENANCE', message: 'm' }, false],
    ['retries spent', { ok: false, permanent: false, code: 'RETRIES_EXHAUSTED', message: 'gave up' }, true],
  ])(
    'in the { ok } shape of builds before 0.4.0 (%s) reads as unknown, in the direction asked, never as a switch',
    (_w, stored, disabled) => {
      expect(parseSwitchOutcome(stored, disabled)).toEqual(unreadable(disabled));
    },
  );

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['a string', 'switched'],
    ['an array', [{ kind: 'switched', disabled: true }]],
    ['an unknown kind', { kind: 'exploded', disabled: true }],
    ['a kind of the wrong type', { kind: 1, disabled: true }],
    ['switched without its direction', { kind: 'switched' }],
    ['failed without a code', { kind: 'failed', disabled: true, retryable: false, message: 'm' }],
    [
      'failed with a retryable that is not a boolean',
      { kind: 'failed', disabled: true, code: 'C', retryable: 'no', message: 'm' },
    ],
    ['ok that is not a boolean', { ok: 'true', soft: false }],
    ['ok true without soft', { ok: true }],
    ['ok false without a message', { ok: false, permanent: true, code: 'C' }],
  ])('that is %s reads as a permanent failure that says so', (_what, stored) => {
    expect(parseSwitchOutcome(stored, true)).toEqual(unreadable(true));
    expect(parseSwitchOutcome(stored, false)).toEqual(unreadable(false));
  });

  it('describes garbage bounded and on one line', () => {
    const huge = `${'x'.repeat(100_000)}\n\u2028forged log line`;
    const outcome = parseSwitchOutcome(huge, true);
    expect(outcome.kind === 'failed' && outcome.message.length).toBeLessThan(400);
    expect(outcome.kind === 'failed' && outcome.message).not.toMatch(/[\n\u2028]/);
    const nested = parseSwitchOutcome({ kind: 'failed', message: 'a\r\nb'.repeat(10_000) }, false);
    expect(nested.kind === 'failed' && nested.message).not.toMatch(/[\r\n]/);
    expect(nested.kind === 'failed' && nested.message.length).toBeLessThan(400);
  });

  it('describes a value that cannot be written as JSON without throwing', () => {
    const cyclic: Record<string, unknown> = { kind: 'switched' };
    cyclic.self = cyclic;
    expect(parseSwitchOutcome(cyclic, true)).toEqual(unreadable(true));
    expect(parseSwitchOutcome(10n, true)).toEqual(unreadable(true));
  });
});
