import { describe, expect, it } from 'vitest';

import { describeEntry, formatStatus } from '../../demo/describe';
import { makePacer, wallMsPerSecond } from '../../demo/pacer';
import type { BreakerConfig } from '../../src/breaker/breakerPolicy';

describe('pacing', () => {
  it('maps a simulated second to 1/speed s, or 1 s in real time, or nothing at speed 0', () => {
    expect(wallMsPerSecond(5, false)).toBe(200);
    expect(wallMsPerSecond(0, false)).toBe(0);
    expect(wallMsPerSecond(0, true)).toBe(1000);
    expect(wallMsPerSecond(5, true)).toBe(1000);
  });

  it('sleeps only for what the work of the second left over', async () => {
    let wall = 0;
    const sleeps: number[] = [];
    const pacer = makePacer({
      speed: 4,
      wallNow: () => wall,
      sleep: (ms) => {
        sleeps.push(ms);
        wall += ms;
        return Promise.resolve();
      },
    });
    wall += 100; // the second's work took 100 ms of the 250 ms budget
    await pacer.wait(false);
    wall += 400; // over budget: no sleep
    await pacer.wait(false);
    await pacer.wait(true); // waiting for a person: real time
    expect(sleeps).toEqual([150, 1000]);
  });
});

describe('live view lines', () => {
  const breaker = {
    threshold: 20,
    windowSeconds: 10,
    probationSeconds: 60,
    probationThreshold: 5,
  } as BreakerConfig;
  const ctx = { breaker, functionName: 'ProcessSensorEvents', failuresAtTrip: 25 };

  it('explains the trip, the disabled trigger and skips the initial CLOSED', () => {
    expect(describeEntry({ second: 20, what: 'breaker OPEN' }, ctx)).toBe(
      '  t+20s  !! TRIPPED: breaker OPEN at 25 failures in window (limit 20 in 10 s): every instance now holds its batch without calling the downstream',
    );
    expect(describeEntry({ second: 21, what: 'trigger DISABLED (listener stopped)' }, ctx)).toContain(
      'AzureWebJobs.ProcessSensorEvents.Disabled=true',
    );
    expect(describeEntry({ second: 0, what: 'breaker CLOSED' }, ctx)).toBeUndefined();
    expect(describeEntry({ second: 140, what: 'breaker CLOSED' }, ctx)).toContain('probation passed');
  });

  it('status line', () => {
    expect(
      formatStatus({
        second: 25,
        sent: 650,
        processedPerSecond: 0,
        backlog: 130,
        failuresInWindow: 25,
        heldBatches: 16,
        maxRerun: 3,
        state: 'OPEN',
        listening: false,
        downstreamDown: true,
      }),
    ).toBe(
      '  t+25s  sent   650  processed/s    0  backlog   130  failures in window  25  held 16 (re-run  3)  breaker OPEN       trigger DISABLED  downstream DOWN',
    );
  });
});
