import { createHash } from 'node:crypto';

/** What the ledger holds for one notice on one channel. */
export interface NoticeEntry {
  /** When the first attempt began (ACS repeatability needs the first-sent time of a repeated request). */
  readonly firstAttemptAt: number;
  /** Set once a send completed: a re-run after a kill sends nothing again. */
  readonly sentAt?: number;
  /**
   * The message as the first attempt rendered it (JSON, the channel's own shape): a re-run sends exactly
   * this, so the provider sees a true repeat (ACS refuses a repeat whose body differs). Absent in entries
   * written before it was kept, or when it was larger than the ledger keeps.
   */
  readonly message?: string;
}

/** The largest rendered message the ledger keeps (UTF-8 bytes); a larger one is re-rendered on a re-run. */
export const MAX_STORED_NOTICE_BYTES = 256 * 1024;

/**
 * A durable record per trip, kind and channel of the notices sent. The activity that sends can be killed
 * half-way by the restart its own trip's settings write causes, and the extension runs it again.
 */
export interface NoticeLedger {
  /**
   * Records an attempt about to start with the message it renders; returns the entry as it stands (an
   * earlier first attempt, and the message it rendered, kept).
   */
  begin(key: string, at: number, message: string): Promise<NoticeEntry>;
  markSent(key: string, entry: NoticeEntry, at: number): Promise<void>;
}

/** What a sender can pass to its provider so the provider itself can recognise a repeat. */
export interface NoticeIdentity {
  /** A GUID derived from the key: the same for every attempt of the same notice. */
  readonly messageId: string;
  readonly firstAttemptAt: number;
}

/** `<trip>/<kind>[-<n>]/<channel>`: one entry per trip, kind (reminders by number) and channel. */
export function noticeKey(
  notice: { readonly tripId: string; readonly kind: string; readonly reminder?: number },
  channel: string,
): string {
  const kind = notice.reminder === undefined ? notice.kind : `${notice.kind}-${notice.reminder}`;
  return `${notice.tripId}/${kind}/${channel}`;
}

/** A deterministic GUID (version-4 layout) from a ledger key. */
export function noticeMessageId(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  const variant = ((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
