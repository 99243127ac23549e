import type { HeldBacklog } from './heldBacklog';

/** "3 d 4 h", "5 h 20 min", "12 min": the precision an operator deciding at 3 a.m. needs. */
export function formatSpan(ms: number): string {
  const min = Math.floor(Math.max(0, ms) / 60_000);
  if (min < 1) return 'under 1 min';
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The oldest held event's age and the time before retention drops it, or why they are not known. */
export function describeOldest(held: HeldBacklog & { known: true }, now: number): string {
  if (held.total === 0) return 'nothing held';
  if (held.oldestEnqueuedAt === undefined || held.retentionEndsAt === undefined)
    return `oldest age unknown (${held.oldestUnknown ?? 'not read'})`;
  const left = held.retentionEndsAt - now;
  const drop =
    left <= 0
      ? `retention may already be dropping held events (since ${utc(held.retentionEndsAt)})`
      : held.guardSavesAt === undefined
        ? `retention drops it in ${formatSpan(left)} (at ${utc(held.retentionEndsAt)})`
        : `the first loss in ${formatSpan(left)} (at ${utc(held.retentionEndsAt)}): ${guardLine(held.guardSavesAt, now)}`;
  return `oldest ${formatSpan(now - held.oldestEnqueuedAt)} old (enqueued ${utc(held.oldestEnqueuedAt)}); ${drop}`;
}

/** What the retention guard does before the deadline, or says it is doing it now. */
const guardLine = (savesAt: number, now: number) =>
  savesAt > now
    ? `saved before the deadline by the retention guard at ${utc(savesAt)} unless approved`
    : 'the retention guard is saving them to blobs now (the next approval drains them first)';

/** One line for emails and logs: "1,204 events held in 3 of 16 partitions; oldest 12 min old …". */
export function describeBacklog(held: HeldBacklog | undefined, now: number): string {
  if (held === undefined) return 'unknown (not read)';
  if (!held.known) return `unknown: ${held.reason}`;
  const partitions = held.partitions.filter((p) => p.held > 0).length;
  if (held.total === 0) return `nothing held in ${held.partitions.length} partitions`;
  return (
    `${held.total.toLocaleString('en-US')} events held in ${partitions} of ${held.partitions.length} partitions; ` +
    describeOldest(held, now)
  );
}
