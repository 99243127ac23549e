/** Waits before the 1st, 2nd, … retry of a failed credentials request; later ones wait the last. */
export const CREDENTIAL_RETRY_DELAYS_MS = [0, 500, 1_000, 2_000, 4_000, 5_000] as const;

/** Share of a delay that jitter may take off, so many instances do not ask the identity endpoint in step. */
const JITTER = 0.2;

/**
 * Wait before retrying after `failuresInARow` failed requests (1 for the first failure): 0, 0.5, 1, 2,
 * 4 s, then 5 s for good, each shortened by up to a fifth by `random` (in [0, 1); injected in tests).
 */
export function credentialRetryDelayMs(failuresInARow: number, random: () => number): number {
  const last = CREDENTIAL_RETRY_DELAYS_MS.length - 1;
  const base = CREDENTIAL_RETRY_DELAYS_MS[Math.min(Math.max(failuresInARow, 1), last + 1) - 1] ?? 5_000;
  return Math.round(base * (1 - JITTER * random()));
}
