import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTableFaultSwitchStore } from '../../src/faults/tableFaultSwitchStore';
import type { LocalTarget } from '../../verify/local/localTarget';
import { runVerify, type VerifyResult } from '../../verify/runVerify';
import { localTarget, recorder, shortRun } from './verifyFixture';

let target: LocalTarget;
let result: VerifyResult;
const out = recorder();

beforeAll(async () => {
  target = await localTarget();
  // Interrupted with the downstream down, the breaker OPEN and the trigger disabled: the worst moment.
  result = await runVerify(target, shortRun('int1'), {
    ...out,
    onMilestone: (name) => {
      if (name === 'disabled') out.controller.abort();
    },
  });
}, 180_000);
afterAll(() => target.close());

describe('npm run verify interrupted mid-outage', () => {
  it('stops waiting and exits 130', () => {
    expect(result.exitCode).toBe(130);
    expect(result.failure).toBe('interrupted');
    expect(result.milestones.notified).toBeUndefined();
  });

  it('leaves the app as it found it: fault switch off, breaker CLOSED, trigger enabled', async () => {
    const { world } = target;
    expect(result.restoration.restored).toBe(true);
    expect(world.isDisabled()).toBe(false);
    expect((await world.runtime.breakerStore.getState()).state).toBe('CLOSED');
    const faults = makeTableFaultSwitchStore(
      world.runtime.storage.table(world.runtime.config.breaker.tableName),
    );
    expect(await faults.read()).toBeUndefined();
    expect(out.lines).toContain('  read back: breaker CLOSED, trigger enabled, fault off');
  });

  it('accounts for what it had published: nothing lost, the held readings still held', () => {
    expect(result.counts).toMatchObject({ sent: 90, lost: 0 });
    expect(
      (result.counts?.processed ?? 0) + (result.counts?.deadLettered ?? 0) + (result.counts?.held ?? 0),
    ).toBe(90);
  });
});
