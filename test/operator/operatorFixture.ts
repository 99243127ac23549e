import { breakerFormReading } from '../../src/control/switchReading';
import type { TriggerSwitch } from '../../src/control/triggerSwitch';
import { silentLogger } from '../../src/kernel/logger';
import type { MaintenanceRecord } from '../../src/maintenance/maintenance';
import type { OperatorPolicy } from '../../src/operator/operatorDeps';
import { registerOperator } from '../../src/operator/registerOperator';
import { durableOrchestrationControl } from '../../src/orchestration/durableOrchestrationControl';
import { makePartitionProgress, type PartitionProgress } from '../../src/processing/partitionProgress';
import { freshMaintenanceRecord } from '../support/maintenanceRecords';
import { type MemoryBreakerStore, memoryBreakerStore } from '../support/memoryBreakerStore';
import { type RecordingDurableServer, startRecordingDurableServer } from '../support/recordingDurableServer';

export const FN = 'ProcessSensorEvents';
export const POLICY: OperatorPolicy = {
  threshold: 100,
  probationThreshold: 10,
  windowSeconds: 30,
  bucketSeconds: 1,
  probationSeconds: 300,
};

/** An in-memory breaker store with the fixture's policy (threshold 100 in 30 s, probation 10). */
export function memoryStoreWithPolicy(): MemoryBreakerStore {
  return memoryBreakerStore({
    threshold: POLICY.threshold,
    probationThreshold: POLICY.probationThreshold,
    windowMs: POLICY.windowSeconds * 1000,
    bucketMs: POLICY.bucketSeconds * 1000,
  });
}

export interface MemoryTriggerSwitch extends TriggerSwitch {
  readonly disabled: Map<string, boolean>;
  failWith: Error | undefined;
}

export function memoryTriggerSwitch(): MemoryTriggerSwitch {
  const disabled = new Map<string, boolean>();
  const sw: MemoryTriggerSwitch = {
    disabled,
    failWith: undefined,
    setDisabled(fn, value) {
      if (sw.failWith) return Promise.reject(sw.failWith);
      disabled.set(fn, value);
      return Promise.resolve();
    },
    readSwitch: (fn) => Promise.resolve(breakerFormReading(fn, disabled.get(fn) ?? false)),
  };
  return sw;
}

export interface OperatorFixture {
  readonly store: MemoryBreakerStore;
  readonly durable: RecordingDurableServer;
  readonly triggerSwitch: MemoryTriggerSwitch;
  readonly maintenance: MaintenanceRecord;
  readonly clock: { now: () => number; advance(ms: number): void };
  deadLetters: number | undefined;
  /** What this instance's processing reports (the batch processor feeds it in the app). */
  readonly progress: PartitionProgress;
  close(): Promise<void>;
}

/** Registers the operator functions over in-memory adapters, a fake durable server and a fixed clock. */
export async function operatorFixture(): Promise<OperatorFixture> {
  let now = Date.UTC(2026, 10, 29, 12, 0, 0);
  const store = memoryStoreWithPolicy();
  const durable = await startRecordingDurableServer();
  const triggerSwitch = memoryTriggerSwitch();
  const maintenance = freshMaintenanceRecord(FN);
  const fixture: OperatorFixture = {
    store,
    durable,
    triggerSwitch,
    maintenance,
    clock: { now: () => now, advance: (ms) => (now += ms) },
    deadLetters: 7,
    progress: makePartitionProgress({
      clock: { now: () => now },
      logger: silentLogger,
      stuckAfterReruns: 3,
      logIntervalMs: 60_000,
    }),
    close: () => durable.close(),
  };
  registerOperator({
    functionName: FN,
    clock: fixture.clock,
    policy: POLICY,
    store,
    triggerSwitch,
    maintenance,
    deadLetterCount: () => Promise.resolve(fixture.deadLetters),
    orchestration: durableOrchestrationControl(FN),
    environmentName: 'staging-eu',
    partitionProgress: () => fixture.progress.snapshot(),
  });
  return fixture;
}
