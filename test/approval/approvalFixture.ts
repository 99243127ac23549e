import { signApprovalToken, type SigningKeys, verifyApprovalToken } from '../../src/approval/approvalToken';
import { registerApproval } from '../../src/approval/registerApproval';
import { durableOrchestrationControl } from '../../src/orchestration/durableOrchestrationControl';
import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { type MemoryBreakerStore, memoryBreakerStore } from '../support/memoryBreakerStore';
import { type RecordingDurableServer, startRecordingDurableServer } from '../support/recordingDurableServer';

export const FN = 'ProcessSensorEvents';
export const KEYS: SigningKeys = [
  'current-key-0123456789abcdef0123456789',
  'previous-key-0123456789abcdef01234567',
];
export const HOUR = 3_600_000;
/** The deployment name every page shows. */
export const ENVIRONMENT = 'staging-eu';

export interface ApprovalFixture {
  readonly store: MemoryBreakerStore;
  readonly durable: RecordingDurableServer;
  readonly clock: { now: () => number; set(ms: number): void };
  /** Opens a trip and puts its fake orchestration in `phase`. */
  trip(phase?: string): Promise<string>;
  sign(tripId: string, overrides?: { functionName?: string; expiresAt?: number; key?: string }): string;
  close(): Promise<void>;
}

/** Registers the approval function over an in-memory store, a fake durable server and a fixed clock. */
export async function approvalFixture(
  options: { readonly signedInApprovers?: readonly string[] } = {},
): Promise<ApprovalFixture> {
  let now = Date.UTC(2026, 10, 29, 12, 0, 0);
  const clock = { now: () => now, set: (ms: number) => (now = ms) };
  const store = memoryBreakerStore({
    threshold: 100,
    probationThreshold: 10,
    windowMs: 30_000,
    bucketMs: 1_000,
  });
  const durable = await startRecordingDurableServer();
  registerApproval({
    functionName: FN,
    clock,
    verifyToken: (token, at) => verifyApprovalToken(token, KEYS, at),
    store,
    deadLetterCount: () => Promise.resolve(3),
    orchestration: durableOrchestrationControl(FN),
    environmentName: ENVIRONMENT,
    probation: { seconds: 300, threshold: 10 },
    ...options,
  });
  return {
    store,
    durable,
    clock,
    async trip(phase = 'awaiting-approval') {
      const tripId = await store.openManually('sink answering 503', now);
      if (tripId === undefined) throw new Error('already open');
      durable.instances.set(breakerInstanceId(tripId), {
        name: 'BreakerOrchestrator',
        input: { tripId },
        runtimeStatus: 'Running',
        customStatus: { phase, tripId },
      });
      return tripId;
    },
    sign(tripId, o = {}) {
      return signApprovalToken(
        { functionName: o.functionName ?? FN, tripId, expiresAt: o.expiresAt ?? now + 24 * HOUR },
        [o.key ?? KEYS[0]],
        now,
      );
    },
    close: () => durable.close(),
  };
}
