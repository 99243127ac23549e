import { describe, expect, it } from 'vitest';

import { formatDuration, formatTime } from '../../src/web/formatting';

describe('formatting for pages and emails', () => {
  it('writes durations in the largest units without zero parts, for settings and elapsed times alike', () => {
    expect(formatDuration(40_000)).toBe('40 s');
    expect(formatDuration(90_000)).toBe('1 min 30 s');
    expect(formatDuration(300_000)).toBe('5 min');
    expect(formatDuration(3_600_000)).toBe('1 h');
    expect(formatDuration(7_500_000)).toBe('2 h 5 min');
    expect(formatDuration(0)).toBe('0 s');
  });

  it('shows a dash for a duration or time it cannot know', () => {
    expect(formatDuration(undefined)).toBe('—');
    expect(formatDuration(-1)).toBe('—');
    expect(formatDuration(Number.NaN)).toBe('—');
    expect(formatTime(undefined)).toBe('—');
  });

  it('writes times in UTC to the second, whatever the time zone', () => {
    expect(formatTime(Date.UTC(2026, 0, 2, 3, 4, 5, 678))).toBe('2026-01-02 03:04:05 UTC');
  });
});
