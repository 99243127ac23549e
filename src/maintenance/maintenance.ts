/**
 * Maintenance mode: the guarded trigger stopped on purpose (a migration, a planned downstream change),
 * with why, who and since when. It holds the trigger off through the same switch as the breaker, and it
 * is kept in a record of its own, apart from the breaker store: a Redis store can restart empty, and a
 * stop on purpose must outlive that, every restart and every redeploy (`blobMaintenanceRecord.ts`).
 */
export interface Maintenance {
  readonly reason: string;
  readonly by: string;
  /** When it was entered (ms since the epoch). */
  readonly since: number;
}

/** A maintenance that ended, for the audit trail. */
export interface EndedMaintenance extends Maintenance {
  readonly leftBy: string;
  readonly leftAt: number;
}

export type EnterResult =
  | { readonly entered: true }
  /** Already in maintenance: nothing was written; the one in force is returned. */
  | { readonly entered: false; readonly current: Maintenance };

/** The durable record of maintenance mode for one guarded function. */
export interface MaintenanceRecord {
  /** The maintenance in force, or undefined. Throws when the record cannot be read. */
  current(): Promise<Maintenance | undefined>;
  /** Enters maintenance unless it is already in force (atomic: one of two concurrent enters wins). */
  enter(maintenance: Maintenance): Promise<EnterResult>;
  /** Ends the maintenance in force and keeps it in the audit trail; undefined when none was in force. */
  leave(by: string, at: number): Promise<EndedMaintenance | undefined>;
  /** Ended maintenances, newest first, at most `limit`. */
  history(limit: number): Promise<readonly EndedMaintenance[]>;
}

/** Bounds of what an operator types (the request schema enforces them; the record re-bounds on read). */
export const MAINTENANCE_REASON_MAX = 500;
export const MAINTENANCE_BY_MAX = 100;

/** Code of the outcome when maintenance keeps the trigger off where the breaker would enable it. */
export const HELD_BY_MAINTENANCE = 'HELD_BY_MAINTENANCE';

/** Why the trigger stays off, in words for the status, the logs and the operators' email. */
export function describeMaintenance(m: Maintenance): string {
  return (
    `maintenance mode holds the trigger off (entered ${new Date(m.since).toISOString()} by ${m.by}: ` +
    `${m.reason}); leaving maintenance (POST /api/breaker/maintenance {"action":"leave"}) enables it`
  );
}
