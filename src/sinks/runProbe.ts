import { ensureError } from '../kernel/ensureError';
import { redactSecrets } from '../kernel/redactSecrets';
import type { ActivitySink } from './activitySink';
import { classifyError } from './classifyError';
import type { ProbeOutcome } from './downstreamProbe';

/** A probe that hangs is a failed probe: the downstream did not answer in time. */
export const PROBE_TIMEOUT_MS = 5_000;
const MAX_ERROR_CHARS = 200;

/** Runs the sink's probe once, bounded by `timeoutMs`; a failure comes back as a value, never thrown. */
export async function runProbe(
  sink: Pick<ActivitySink, 'probe'>,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ProbeOutcome> {
  try {
    await sink.probe(AbortSignal.timeout(timeoutMs));
    return { ok: true };
  } catch (error) {
    const e = ensureError(error);
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
    const text = timedOut ? `no answer within ${timeoutMs / 1000} s` : e.message.replace(/\s+/g, ' ').trim();
    const kind = classifyError(error) === 'transient' ? '' : ' (permanent)';
    return { ok: false, error: clip(redactSecrets(text || e.name)) + kind };
  }
}

function clip(text: string): string {
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}
