import { describe, expect, it } from 'vitest';

import { TriggerSwitchPermissionError, TriggerSwitchTransientError } from '../../src/control/errors';
import { breakerFormReading } from '../../src/control/switchReading';
import type { TriggerSwitch } from '../../src/control/triggerSwitch';
import { failedAfterRetries, setDisabledWithOutcome } from '../../src/control/triggerSwitchOutcome';

const failingWith = (error: Error): TriggerSwitch => ({
  setDisabled: () => Promise.reject(error),
  readSwitch: () => Promise.resolve(undefined),
});
const working: TriggerSwitch = {
  setDisabled: () => Promise.resolve(),
  readSwitch: (fn) => Promise.resolve(breakerFormReading(fn, true)),
};

describe('trigger switch outcome (for the orchestration activity)', () => {
  it('reports success per mode', async () => {
    await expect(setDisabledWithOutcome(working, 'arm', 'F', true)).resolves.toEqual({
      kind: 'switched',
      disabled: true,
    });
    await expect(setDisabledWithOutcome(working, 'local', 'F', true)).resolves.toEqual({
      kind: 'soft',
      disabled: true,
    });
  });

  it('returns a permanent failure as a value, so the activity is not retried and the email can say what to fix', async () => {
    const sw = failingWith(new TriggerSwitchPermissionError('needs Website Contributor', 403));
    await expect(setDisabledWithOutcome(sw, 'arm', 'F', true)).resolves.toEqual({
      kind: 'failed',
      disabled: true,
      code: 'TRIGGER_SWITCH_PERMISSION',
      retryable: false,
      message: 'needs Website Contributor',
    });
  });

  it('rethrows a retryable failure for callActivityWithRetry, and describes it once retries are spent', async () => {
    const error = new TriggerSwitchTransientError('HTTP 503', 503);
    await expect(setDisabledWithOutcome(failingWith(error), 'arm', 'F', true)).rejects.toBe(error);
    // The orchestrator sees the activity's failure (not the switch's error) after the last attempt.
    expect(failedAfterRetries(true, 3, new Error('Activity function failed: HTTP 503'))).toEqual({
      kind: 'failed',
      disabled: true,
      code: 'RETRIES_EXHAUSTED',
      retryable: true,
      message: 'gave up after 3 attempts: Activity function failed: HTTP 503',
    });
    expect(failedAfterRetries(false, 2, 'timed out')).toMatchObject({
      disabled: false,
      message: /timed out$/,
    });
  });
});
