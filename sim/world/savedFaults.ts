import type { SavedEvents } from '../../src/retention/savedEvents';
import { invocationScope } from '../host/invocationScope';

/**
 * One read of saved events (a drain batch): the range it covered and the invocation it ran under (a
 * host invocation's id for a held batch's saved-first, `?` for the drain activity). The batch processor
 * supersedes by key inside it as inside a host batch.
 */
export interface SavedRead {
  readonly invocationId: string;
  readonly partitionId: string;
  readonly firstSequence: number;
  readonly lastSequence: number;
}

/** Storage refusing the saved events' calls while a fault says it is down (a 503 from the account). */
export class SavedStorageDownError extends Error {
  readonly statusCode = 503;
  constructor(call: string) {
    super(`storage unavailable (simulated): saved events ${call} refused`);
    this.name = 'SavedStorageDownError';
  }
}

/** The process died after the saved blobs were written and before the checkpoint moved (simulated). */
export class CrashedMidSaveError extends Error {
  constructor(count: number) {
    super(`process crashed (simulated) after saving ${count} blob(s), before the checkpoint move`);
    this.name = 'CrashedMidSaveError';
  }
}

/**
 * Faults of the retention guard's saved events (blobs under `saved/`), switched by a test while a run
 * goes on: storage down for every call, or the process crashing right after a save's blobs are written
 * (the guard then never moves the checkpoint; the test restarts the process). Observers see each save
 * and each drain read, so a schedule can time its faults by what the guard and the drain really do.
 */
export class SavedFaults {
  /** While true every call of the saved events fails as storage down would. */
  storageDown = false;
  /** The next save writes its blobs, then the process crashes (throws); cleared by it. */
  crashAfterNextSave = false;
  /** The process crashed mid-save: every later call of it fails until the test restarts it. */
  crashed = false;
  /** Called at each save before anything is written (storage may be switched down then). */
  onSaving: (() => void) | undefined;
  /** Called after each save that wrote its blobs, with the number of events and whether it crashes now. */
  onSaved: ((count: number, crashing: boolean) => void) | undefined;
  /** Called before each read of saved events (the drain's, or a held batch's saved-first). */
  onRead: (() => void) | undefined;
  /** Called after saved events were removed (drained). */
  onRemoved: ((count: number) => void) | undefined;

  /**
   * Every read of saved events in this world, in order (kept across runs: a run's checks match them
   * with its own writes, whose keys name the run).
   */
  readonly reads: SavedRead[] = [];

  /** No faults, no observers (between runs). */
  clear(): void {
    this.storageDown = false;
    this.crashAfterNextSave = false;
    this.crashed = false;
    this.onSaving = undefined;
    this.onSaved = undefined;
    this.onRead = undefined;
    this.onRemoved = undefined;
  }

  /** The app's saved events with these faults in front (RuntimeOptions.decorateSaved). */
  decorate(saved: SavedEvents): SavedEvents {
    const up = (call: string) => {
      if (this.crashed) throw new CrashedMidSaveError(0);
      if (this.storageDown) throw new SavedStorageDownError(call);
    };
    return {
      save: async (events) => {
        this.onSaving?.();
        up('save');
        await saved.save(events);
        this.onSaved?.(events.length, this.crashAfterNextSave);
        if (this.crashAfterNextSave) {
          this.crashAfterNextSave = false;
          this.crashed = true;
          throw new CrashedMidSaveError(events.length);
        }
      },
      partitions: async () => (up('list'), saved.partitions()),
      sequenceNumbers: async (partitionId) => (up('list'), saved.sequenceNumbers(partitionId)),
      read: async (partitionId, seqs) => {
        up('read');
        this.onRead?.();
        const read = await saved.read(partitionId, seqs);
        const numbers = read.events.flatMap((e) =>
          e.sequenceNumber === undefined ? [] : [e.sequenceNumber],
        );
        if (numbers.length > 0)
          this.reads.push({
            invocationId: invocationScope.getStore()?.invocationId ?? '?',
            partitionId,
            firstSequence: Math.min(...numbers),
            lastSequence: Math.max(...numbers),
          });
        return read;
      },
      remove: async (partitionId, seqs) => {
        up('remove');
        await saved.remove(partitionId, seqs);
        this.onRemoved?.(seqs.length);
      },
      heldRuns: async (partitionId, seq) => (up('read'), saved.heldRuns(partitionId, seq)),
      recordHeldRun: async (partitionId, seq, runs) => (
        up('write'),
        saved.recordHeldRun(partitionId, seq, runs)
      ),
      count: async () => (up('list'), saved.count()),
    };
  }
}
