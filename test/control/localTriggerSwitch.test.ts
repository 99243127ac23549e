import { describe, expect, it } from 'vitest';

import { makeLocalTriggerSwitch } from '../../src/control/localTriggerSwitch';
import { isTriggerDisabled } from '../../src/control/triggerSwitch';

function recordingLogger() {
  const lines: string[] = [];
  const push = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  };
  return { lines, logger: { log: push, warn: push, error: push } };
}

describe('local trigger switch', () => {
  it('only logs that the soft OPEN state holds the stream, and remembers the last value', async () => {
    const { lines, logger } = recordingLogger();
    const sw = makeLocalTriggerSwitch(logger);
    await expect(isTriggerDisabled(sw, 'ProcessSensorEvents')).resolves.toBeUndefined();
    await sw.setDisabled('ProcessSensorEvents', true);
    expect(lines.join('\n')).toMatch(/soft OPEN state is holding the stream/);
    await expect(isTriggerDisabled(sw, 'ProcessSensorEvents')).resolves.toBe(true);
    await sw.setDisabled('ProcessSensorEvents', false);
    expect(sw.lastRequested('ProcessSensorEvents')).toBe(false);
  });
});
