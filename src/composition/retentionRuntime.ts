import { blobPartitionLease } from '../deadLetters/partitionLease';
import type { Logger } from '../kernel/logger';
import { drainSavedEvents } from '../retention/drainSaved';
import { type RetentionGuardDeps, saveMarginMs } from '../retention/retentionGuard';
import { makeSavedEvents, SAVED_PREFIX, type SavedEvents } from '../retention/savedEvents';
import { hubPartsFor } from './backlogRuntime';
import type { Runtime } from './runtime';

const saved = new WeakMap<Runtime, SavedEvents>();

/** The saved events of the retention guard: blobs under `saved/` in the dead-letter container. */
export function savedEventsFor(runtime: Runtime): SavedEvents {
  let s = saved.get(runtime);
  if (s === undefined) {
    s = runtime.decorateSaved(
      makeSavedEvents(runtime.storage.container(runtime.config.processing.deadLetterContainer)),
    );
    saved.set(runtime, s);
  }
  return s;
}

/** Where the saved events are, in the words every channel uses. */
export const savedWhere = (runtime: Runtime) =>
  `blobs ${SAVED_PREFIX}<partition>/ in container ${runtime.config.processing.deadLetterContainer}`;

/** The retention guard's reads and writes (the watchdog runs it every minute). */
export function createRetentionGuardDeps(runtime: Runtime): RetentionGuardDeps {
  const { config } = runtime;
  const { guard, checkpoints } = hubPartsFor(runtime);
  return {
    retentionMs: runtime.hubRetentionMs,
    marginMs: saveMarginMs(runtime.hubRetentionMs, config.eventHub.retentionSaveMarginMinutes),
    hub: guard.hub,
    events: guard.events,
    checkpoints,
    saved: savedEventsFor(runtime),
    lease: blobPartitionLease(
      runtime.storage.container(config.processing.deadLetterContainer),
      'retention-guard',
    ),
    clock: runtime.clock,
    savedWhere: savedWhere(runtime),
    peeked: new Map(),
  };
}

/** Breaker_DrainSaved's work: the saved events through the normal processing path, then removed. */
export function drainSavedFor(runtime: Runtime) {
  return async (logger: Logger) => {
    const result = await drainSavedEvents(savedEventsFor(runtime), runtime.processBatch, {
      invocationId: 'drain-saved',
      logger,
    });
    return { drained: result.drained, dead: result.dead };
  };
}

/** The status API's view of the saved events: how many, where, and how they come back. */
export function savedEventsView(runtime: Runtime) {
  return async () => ({
    ...(await savedEventsFor(runtime).count()),
    where: savedWhere(runtime),
    comeBack:
      'to the sink before any later event of their key: on the approval, before the trigger is enabled ' +
      "(Breaker_DrainSaved), or, while CLOSED, on the held batch's next re-run",
  });
}
