import { describe, expect, it } from 'vitest';

import { boundText } from '../../src/kernel/boundText';
import { checkPersonName } from '../../src/kernel/personName';

describe('boundText', () => {
  it('turns every control character and line separator into a space', () => {
    expect(boundText('a\nb\r\nc\u0000d\u0085e\u2028f\u2029g\u001bh\u007f')).toBe('a b  c d e f g h ');
  });

  it('cuts long text and says how much was left out, never splitting a surrogate pair', () => {
    expect(boundText('x'.repeat(20), 5)).toBe('xxxxx… (15 more characters)');
    const cut = boundText(`abcd${'😀'.repeat(3)}`, 5);
    expect(cut).toBe('abcd… (6 more characters)');
    expect(boundText('short', 5)).toBe('short');
  });
});

describe('checkPersonName', () => {
  it('cleans, trims and bounds a name', () => {
    expect(checkPersonName('  Lee\r\nOps ')).toEqual({ ok: true, name: 'Lee  Ops' });
    expect(checkPersonName('\u0000 ')).toEqual({ ok: false, problem: 'empty' });
    expect(checkPersonName('x'.repeat(101))).toEqual({ ok: false, problem: 'too-long' });
  });
});
