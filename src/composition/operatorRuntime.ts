import type { ApprovalHandlerDeps } from '../approval/approvalHandler';
import { verifyApprovalToken } from '../approval/approvalToken';
import { blobDeadLetterArchive } from '../deadLetters/deadLetterArchive';
import { queueDeadLetterCount } from '../deadLetters/queueDeadLetterCount';
import { queueRedriveDeferral } from '../deadLetters/redriveDeferral';
import type { RedriveDeps } from '../deadLetters/redriveHandler';
import { queueRedriveRefusal } from '../deadLetters/redriveRefusal';
import type { OperatorDeps } from '../operator/operatorDeps';
import { durableOrchestrationControl } from '../orchestration/durableOrchestrationControl';
import { heldBacklogReaderFor } from './backlogRuntime';
import { faultSwitchDeps } from './faultSwitchRuntime';
import { maintenanceRecordFor } from './maintenanceRuntime';
import { savedEventsView } from './retentionRuntime';
import { getRuntime, type Runtime } from './runtime';

/** How long a dead letter waits before the next redrive attempt while the circuit is not CLOSED. */
export const REDRIVE_DEFER_SECONDS = 300;

/** Dependencies of the approval page, operator API, dashboard and redrive. */
export interface OperatorRuntime {
  readonly approval: ApprovalHandlerDeps;
  readonly operator: OperatorDeps;
  readonly redrive: RedriveDeps;
}

/** Builds them from the process runtime; nothing connects until a handler runs. */
export function createOperatorRuntime(runtime: Runtime): OperatorRuntime {
  const { config, clock, storage, breakerStore } = runtime;
  const functionName = config.functionName;
  const orchestration = durableOrchestrationControl(functionName);
  const deadLetterQueue = storage.queue(config.processing.deadLetterQueue);
  const deadLetterCount = queueDeadLetterCount(deadLetterQueue);
  // The same switch the orchestration's activities use: one credential, the same (test) ARM endpoint.
  const triggerSwitch = runtime.controls.triggerSwitch();
  const heldBacklog = heldBacklogReaderFor(runtime);
  const { environmentName } = config;
  const signedIn = config.operations.requireSignedInApprover
    ? { signedInApprovers: config.email.approvers }
    : {};
  return {
    approval: {
      functionName,
      clock,
      ...signedIn,
      verifyToken: (token, now) => verifyApprovalToken(token, config.approval.signingKeys, now),
      store: breakerStore,
      deadLetterCount,
      orchestration,
      heldBacklog,
      probation: { seconds: config.breaker.probationSeconds, threshold: config.breaker.probationThreshold },
      environmentName,
    },
    operator: {
      functionName,
      clock,
      ...signedIn,
      policy: {
        threshold: config.breaker.threshold,
        probationThreshold: config.breaker.probationThreshold,
        windowSeconds: config.breaker.windowSeconds,
        bucketSeconds: config.breaker.bucketSeconds,
        probationSeconds: config.breaker.probationSeconds,
      },
      store: breakerStore,
      triggerSwitch,
      maintenance: maintenanceRecordFor(runtime),
      deadLetterCount,
      orchestration,
      storeHealth: () => runtime.breaker.health(),
      partitionProgress: () => runtime.progress.snapshot(),
      heldBacklog,
      ...(config.eventHub.retentionGuard && { savedEvents: savedEventsView(runtime) }),
      environmentName,
      faultSwitch: faultSwitchDeps(runtime),
    },
    redrive: {
      functionName,
      store: breakerStore,
      archive: blobDeadLetterArchive(storage.container(config.processing.deadLetterContainer)),
      defer: queueRedriveDeferral(deadLetterQueue),
      // The name the Functions host gives the queue trigger's poison queue.
      refuse: queueRedriveRefusal(storage.queue(`${config.processing.deadLetterQueue}-poison`)),
      sink: runtime.sink,
      retry: {
        maxAttempts: config.processing.maxAttempts,
        initialDelayMs: config.processing.retryInitialDelayMs,
        maxDelayMs: config.processing.retryMaxDelayMs,
      },
      deadlineMs: config.processing.batchDeadlineMs,
      deferSeconds: REDRIVE_DEFER_SECONDS,
      clock,
      maxFutureSkewMs: config.processing.maxFutureSkewMs,
    },
  };
}

let shared: OperatorRuntime | undefined;

/** The process-wide operator runtime over `getRuntime()`. */
export function getOperatorRuntime(): OperatorRuntime {
  return (shared ??= createOperatorRuntime(getRuntime()));
}
