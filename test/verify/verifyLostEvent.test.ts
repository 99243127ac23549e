import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { LocalTarget } from '../../verify/local/localTarget';
import { homePrefix } from '../../verify/plan';
import { runVerify, type VerifyResult } from '../../verify/runVerify';
import type { VerifyTarget } from '../../verify/target';
import { localTarget, recorder, shortRun } from './verifyFixture';

const RUN = 'lossy1';
let target: LocalTarget;
let result: VerifyResult;
const out = recorder();

/**
 * A downstream that loses one acknowledged write: once the readings before the fault are in, the row of
 * reading 0 disappears from the sink table behind the app's back. The loss lands before the next
 * simulated second, so the run sees it whenever it looks.
 */
function losingOneRow(real: LocalTarget): { target: VerifyTarget; lose: () => void } {
  let loss: Promise<unknown> | undefined;
  return {
    target: {
      ...real,
      async pass(ms, signal) {
        await loss;
        return real.pass(ms, signal);
      },
    },
    lose: () => {
      loss = real.stores.sinkTable.deleteEntity(`${homePrefix(RUN)}h0`, 'e0');
    },
  };
}

beforeAll(async () => {
  target = await localTarget();
  const lossy = losingOneRow(target);
  result = await runVerify(lossy.target, shortRun(RUN, { stageTimeoutMs: 90_000 }), {
    ...out,
    onMilestone: (name) => {
      if (name === 'faultOn') lossy.lose();
    },
  });
}, 180_000);
afterAll(() => target.close());

describe('npm run verify when the downstream loses an event', () => {
  it('exits non-zero with lost 1, naming the event and the step that did not complete', () => {
    expect(result.exitCode).toBe(1);
    expect(result.counts).toMatchObject({ sent: 120, lost: 1, held: 0, missing: [0] });
    expect(result.failure).toBe(
      'backlog drained, every reading accounted for did not happen within 90 s; last seen: 1 not found, held 0',
    );
    expect(out.lines).toContain('  not found (first 1): events 0');
    expect(out.lines.at(-1)).toMatch(/^lost 1; failed: backlog drained/);
  });

  it('still leaves the app as it found it', async () => {
    expect(result.restoration.restored).toBe(true);
    expect(target.world.isDisabled()).toBe(false);
    expect((await target.world.runtime.breakerStore.getState()).state).toBe('CLOSED');
  });
});
