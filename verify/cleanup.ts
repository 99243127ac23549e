import type { AppClient } from './appClient';
import type { Changes } from './runContext';
import type { VerifyTarget } from './target';

export interface Restoration {
  /** What the cleanup did, one line each. */
  readonly lines: readonly string[];
  /** Nothing changed, or fault switch off, breaker CLOSED and trigger enabled as read back after the cleanup. */
  readonly restored: boolean;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Leaves the app as the run found it, whatever happened, undoing only what the run changed: clears the
 * fault, force-resets a breaker the run tripped that is not CLOSED yet (which also enables the trigger),
 * puts FAULT_SWITCH_ENABLED back, then reads all three back. Each step is tried even when an earlier
 * one failed. A breaker the run found OPEN is never touched.
 */
export async function restoreApp(
  client: AppClient,
  target: VerifyTarget,
  by: string,
  changes: Changes,
): Promise<Restoration> {
  if (!changes.faultSwitchEnabled && !changes.faultSet)
    return { lines: ['nothing to restore: the run changed nothing'], restored: true };
  const lines: string[] = [];
  const signal = new AbortController().signal;
  try {
    if (changes.faultSet) {
      await client.setFault(false, 0, by);
      lines.push('fault switch: fault cleared');
    } else lines.push('fault switch: no fault was set by this run');
  } catch (error) {
    lines.push(`fault switch: could not clear the fault (${message(error)}); it expires by itself`);
  }
  try {
    // A reset while the orchestration waits is an approval (HALF_OPEN, probation); the next one, with the
    // orchestration past the wait, takes the break-glass path to CLOSED. Two are enough; three bound it.
    for (let attempt = 0; attempt < 3 && changes.faultSet; attempt++) {
      const status = await client.status();
      if (status.state === 'CLOSED') break;
      const code = await client.forceReset(by);
      lines.push(`breaker was ${status.state ?? 'unknown'}: reset through the operator API (HTTP ${code})`);
      await target.pass(target.pollMs, signal);
    }
  } catch (error) {
    lines.push(`breaker: could not reset (${message(error)})`);
  }
  try {
    lines.push(await target.restoreFaultSwitch());
  } catch (error) {
    lines.push(`FAULT_SWITCH_ENABLED: could not restore (${message(error)})`);
  }
  let restored = false;
  try {
    const [status, disabled, faultDown] = await Promise.all([
      client.status(),
      target.triggerDisabled(),
      client.faultDown(),
    ]);
    restored = status.state === 'CLOSED' && !disabled && !faultDown;
    lines.push(
      `read back: breaker ${status.state ?? 'unknown'}, trigger ${disabled ? 'DISABLED' : 'enabled'}, fault ${faultDown ? 'ON' : 'off'}`,
    );
  } catch (error) {
    lines.push(`read back failed: ${message(error)}`);
  }
  return { lines, restored };
}
