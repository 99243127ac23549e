import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/loadConfig';
import { saveMarginMs } from '../../src/retention/retentionGuard';
import { minimal, problemsOf } from './configFixture';

describe('the retention guard settings', () => {
  it('refuses a margin that is not below the retention, naming both settings', () => {
    expect(
      problemsOf({ ...minimal, EVENTHUB_RETENTION_HOURS: '24', RETENTION_SAVE_MARGIN_MINUTES: '1440' }),
    ).toEqual([
      expect.stringMatching(
        /^RETENTION_SAVE_MARGIN_MINUTES: must be less than EVENTHUB_RETENTION_HOURS \(24 h = 1440 min\)/,
      ),
    ]);
  });

  it('refuses a margin or retention that is not a whole number in range, naming the setting', () => {
    expect(problemsOf({ ...minimal, RETENTION_SAVE_MARGIN_MINUTES: '15.5' })).toEqual([
      expect.stringMatching(/^RETENTION_SAVE_MARGIN_MINUTES: expected a whole number from 1 to 129600/),
    ]);
    expect(problemsOf({ ...minimal, EVENTHUB_RETENTION_HOURS: '0' })).toEqual([
      expect.stringMatching(/^EVENTHUB_RETENTION_HOURS: expected a whole number from 1 to 2160/),
    ]);
    expect(problemsOf({ ...minimal, RETENTION_GUARD_ENABLED: 'sometimes' })).toEqual([
      expect.stringMatching(/^RETENTION_GUARD_ENABLED: expected true or false/),
    ]);
  });

  it('defaults to the guard on with a margin of a seventh of the retention: 24 h of 168 h', () => {
    const config = loadConfig(minimal);
    expect(config.eventHub.retentionGuard).toBe(true);
    expect(
      saveMarginMs(config.eventHub.retentionHours * 3_600_000, config.eventHub.retentionSaveMarginMinutes),
    ).toBe(24 * 3_600_000);
    expect(saveMarginMs(2 * 60_000, undefined)).toBe(60_000);
    expect(saveMarginMs(168 * 3_600_000, 90)).toBe(90 * 60_000);
  });
});
