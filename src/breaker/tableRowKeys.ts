/**
 * Row keys of the Table breaker store. Everything of one breaker lives in one partition (the guarded
 * function's name), so the window is one partition query and a trip is one entity-group transaction.
 * Numbers are zero-padded so that string order is numeric order.
 */
export const STATE_ROW = 'state';

const pad = (n: number, width: number) => String(Math.max(0, Math.floor(n))).padStart(width, '0');

/** One row per (bucket, writer shard): a shard is one store instance, so no two writers share a row. */
export const bucketRow = (bucket: number, shard: string) => `b-${pad(bucket, 16)}-${shard}`;
/** Lower bound (inclusive) of the rows of buckets ≥ `bucket`. */
export const bucketRowFrom = (bucket: number) => `b-${pad(bucket, 16)}`;
export const BUCKET_ROWS_START = 'b-';
/** Upper bound (exclusive) of every bucket row: '.' sorts right after '-'. */
export const BUCKET_ROWS_END = 'b.';

/** Newest trip first: the key counts down from the far future. */
const FAR_FUTURE_MS = 9_999_999_999_999;
export const tripRow = (openedAt: number, tripId: string) =>
  `t-${pad(FAR_FUTURE_MS - openedAt, 13)}-${tripId}`;
export const TRIP_ROWS_START = 't-';
export const TRIP_ROWS_END = 't.';
