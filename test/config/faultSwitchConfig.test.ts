import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/loadConfig';
import { minimal, problemsOf } from './configFixture';

describe('fault switch settings', () => {
  it('are off by default, with a 15 minute limit', () => {
    expect(loadConfig(minimal).faultSwitch).toEqual({ enabled: false, maxMinutes: 15 });
  });

  it('turn on with the sample sink on a deployment opted in to verify runs', () => {
    const config = loadConfig({
      ...minimal,
      FAULT_SWITCH_ENABLED: 'TRUE',
      FAULT_SWITCH_MAX_MINUTES: '5',
      BREAKWATER_VERIFY_ALLOWED: 'true',
    });
    expect(config.faultSwitch).toEqual({ enabled: true, maxMinutes: 5 });
  });

  it('refuse to turn on where the deployment has not opted in (a setting copied to production)', () => {
    expect(problemsOf({ ...minimal, FAULT_SWITCH_ENABLED: 'true' })).toEqual([
      'FAULT_SWITCH_ENABLED: may only be true on a sandbox opted in to verify runs (BREAKWATER_VERIFY_ALLOWED=true)',
    ]);
    expect(
      problemsOf({ ...minimal, FAULT_SWITCH_ENABLED: 'true', BREAKWATER_VERIFY_ALLOWED: 'false' }),
    ).toHaveLength(1);
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
        BREAKWATER_VERIFY_ALLOWED: 'true',
        SINK: 'http',
        SINK_HTTP_URL: 'https://api.example.com/v1/readings',
      }),
    ).toEqual(['FAULT_SWITCH_ENABLED: may only be true with the sample sink (SINK=table), not SINK=http']);
  });
});
