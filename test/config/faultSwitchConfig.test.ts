import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/loadConfig';
import { minimal, problemsOf } from './configFixture';

describe('fault switch settings', () => {
  it('are off by default, with a 15 minute limit', () => {
    expect(loadConfig(minimal).faultSwitch).toEqual({ enabled: false, maxMinutes: 15 });
  });

  it('turn on with the sample sink', () => {
    const config = loadConfig({ ...minimal, FAULT_SWITCH_ENABLED: 'TRUE', FAULT_SWITCH_MAX_MINUTES: '5' });
    expect(config.faultSwitch).toEqual({ enabled: true, maxMinutes: 5 });
  });

  it.each([
    [
      { FAULT_SWITCH_ENABLED: 'yes' },
      'FAULT_SWITCH_ENABLED: expected true or false, e.g. "false" (got "yes")',
    ],
    [
      { FAULT_SWITCH_MAX_MINUTES: '0' },
      'FAULT_SWITCH_MAX_MINUTES: expected a whole number from 1 to 60, e.g. "15" (got "0")',
    ],
    [
      { FAULT_SWITCH_MAX_MINUTES: '61' },
      'FAULT_SWITCH_MAX_MINUTES: expected a whole number from 1 to 60, e.g. "15" (got "61")',
    ],
  ])('refuse %o with a clear error', (bad, problem) => {
    expect(problemsOf({ ...minimal, ...bad })).toEqual([problem]);
  });

  it('refuse to turn on with a sink the switch cannot take down', () => {
    expect(
      problemsOf({
        ...minimal,
        FAULT_SWITCH_ENABLED: 'true',
        SINK: 'http',
        SINK_HTTP_URL: 'https://api.example.com/v1/readings',
      }),
    ).toEqual(['FAULT_SWITCH_ENABLED: may only be true with the sample sink (SINK=table), not SINK=http']);
  });
});
