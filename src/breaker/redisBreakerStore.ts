import type { Redis, Result } from 'ioredis';

import { withDependencySpan } from '../kernel/dependencySpan';
import type { FailureSample } from '../kernel/failureSample';
import { sampleOf } from '../kernel/failureSample';
import { assertAllowedTransition } from './allowedTransitions';
import { type BreakerPolicy, bucketsInWindow, windowOf } from './breakerPolicy';
import type {
  BreakerState,
  BreakerStateName,
  BreakerStore,
  RecordResult,
  TripRecord,
  WindowBucket,
} from './breakerStore';
import { readableTrips } from './breakerStore';
import { BreakerStoreCorruptError } from './errors';
import { newTripId as defaultNewTripId } from './newTripId';
import { isStateName, parseStoredState } from './parseStoredState';
import { parseTripForUpdate, parseTripRecord, tripIdOf } from './parseTripRecord';
import { whenReady } from './redisClient';
import { openManuallyScript, recordScript, replaceTripScript, transitionScript } from './redisScripts';

type ScriptArg = string | number;
declare module 'ioredis' {
  interface RedisCommander<Context> {
    breakwaterRecord(...args: ScriptArg[]): Result<unknown, Context>;
    breakwaterTransition(...args: ScriptArg[]): Result<unknown, Context>;
    breakwaterOpenManually(...args: ScriptArg[]): Result<unknown, Context>;
    breakwaterReplaceTrip(...args: ScriptArg[]): Result<unknown, Context>;
  }
}

export interface RedisBreakerStoreDeps {
  readonly redis: Redis;
  /** The guarded function's name: the hash tag of every key. */
  readonly name: string;
  readonly policy: BreakerPolicy;
  readonly newTripId?: (now: number) => string;
  /** How long a call waits for a first connection. */
  readonly readyWaitMs?: number;
}

/** Keys of one breaker; `{name}` is the Redis Cluster hash tag, so all three live in one slot. */
export function breakerKeys(name: string) {
  const prefix = `breakwater:{${name}}`;
  return { window: `${prefix}:window`, state: `${prefix}:state`, trips: `${prefix}:trips` } as const;
}

/**
 * The breaker store on Redis: one hash of fixed time buckets per guarded function, updated, expired and
 * summed by one Lua script per `record`, which also opens the breaker atomically (see redisScripts.ts).
 * `close()` quits the client it was given.
 */
export function makeRedisBreakerStore(deps: RedisBreakerStoreDeps): BreakerStore {
  const { redis, policy } = deps;
  const keys = breakerKeys(deps.name);
  const buckets = bucketsInWindow(policy);
  const newTripId = deps.newTripId ?? defaultNewTripId;
  const ready = () => whenReady(redis, deps.readyWaitMs ?? 1000);
  redis.defineCommand('breakwaterRecord', { numberOfKeys: 3, lua: recordScript });
  redis.defineCommand('breakwaterTransition', { numberOfKeys: 1, lua: transitionScript });
  redis.defineCommand('breakwaterOpenManually', { numberOfKeys: 3, lua: openManuallyScript });
  redis.defineCommand('breakwaterReplaceTrip', { numberOfKeys: 1, lua: replaceTripScript });

  // Each store call is one Redis dependency span (the wait for a connection included).
  const run = <T>(operation: string, call: () => Promise<T>): Promise<T> =>
    withDependencySpan(
      `redis ${operation}`,
      { 'db.system': 'redis', 'db.operation.name': operation },
      async () => {
        await ready();
        try {
          return await call();
        } catch (error) {
          throw asStoreError(error);
        }
      },
    );

  return {
    record: (failures: readonly FailureSample[], now: number) =>
      run('record', async () =>
        parseRecordReply(
          await redis.breakwaterRecord(
            keys.window,
            keys.state,
            keys.trips,
            now,
            policy.bucketMs,
            buckets,
            policy.threshold,
            policy.probationThreshold,
            failures.length,
            newTripId(now),
            policy.historyLimit,
            JSON.stringify(sampleOf(failures)),
          ),
        ),
      ),

    getState: () =>
      run('getState', async (): Promise<BreakerState> => {
        const [state, tripId, since] = await redis.hmget(keys.state, 'state', 'tripId', 'since');
        return parseStoredState({ state, tripId, since });
      }),

    transition: (from: BreakerStateName, to: BreakerStateName, tripId: string | undefined, now: number) => {
      assertAllowedTransition(from, to);
      return run(
        'transition',
        async () => (await redis.breakwaterTransition(keys.state, from, to, tripId ?? '', now)) === 1,
      );
    },

    openManually: (reason: string, now: number) =>
      run('openManually', async () => {
        const reply = await redis.breakwaterOpenManually(
          keys.window,
          keys.state,
          keys.trips,
          newTripId(now),
          now,
          JSON.stringify(reason),
          policy.historyLimit,
          policy.bucketMs,
          buckets,
        );
        return typeof reply === 'string' ? reply : undefined;
      }),

    resetWindow: () =>
      run('resetWindow', async () => {
        await redis.del(keys.window);
      }),

    windowBuckets: (now: number) =>
      run('windowBuckets', async (): Promise<readonly WindowBucket[]> => {
        const stored = await redis.hgetall(keys.window);
        const counts = new Map<number, number>();
        for (const [field, value] of Object.entries(stored)) {
          if (field === 't' || field === 'lo') continue; // the running total and its lower bound
          const [bucket, count] = [Number(field), Number(value)];
          if (!Number.isInteger(bucket) || !Number.isInteger(count)) {
            throw new BreakerStoreCorruptError(`window bucket ${field}=${value} is not a number`);
          }
          counts.set(bucket, count);
        }
        return windowOf(policy, now, counts);
      }),

    history: (limit: number) =>
      run('history', async () => {
        const items = await redis.lrange(keys.trips, 0, Math.max(0, limit - 1));
        return limit <= 0 ? [] : items.map((json) => parseTripRecord(json));
      }),

    trip: (tripId: string) =>
      run('trip', async () => {
        const items = await redis.lrange(keys.trips, 0, -1);
        return readableTrips(items.map((json) => parseTripRecord(json))).find((t) => t.tripId === tripId);
      }),

    updateTrip: (tripId: string, patch: Partial<Omit<TripRecord, 'tripId'>>) =>
      run('updateTrip', async () => {
        // Read, merge, compare-and-set; a concurrent change makes the set miss and the loop re-read.
        for (let attempt = 0; attempt < 5; attempt++) {
          const items = await redis.lrange(keys.trips, 0, -1);
          const old = items.find((json) => tripIdOf(parseTripRecord(json)) === tripId);
          if (old === undefined) return;
          const merged = JSON.stringify({ ...parseTripForUpdate(old), ...patch, tripId });
          if ((await redis.breakwaterReplaceTrip(keys.trips, old, merged)) === 1) return;
        }
        throw new BreakerStoreCorruptError(`trip ${tripId} kept changing while it was updated`);
      }),

    close: async () => {
      if (redis.status === 'end') return;
      await redis.quit().catch(() => {
        redis.disconnect();
      });
    },
  };
}

function parseRecordReply(reply: unknown): RecordResult {
  if (!Array.isArray(reply) || reply.length !== 4) {
    throw new BreakerStoreCorruptError(`unexpected record reply: ${JSON.stringify(reply)}`);
  }
  const [sum, state, tripped, tripId] = reply as unknown[];
  if (typeof sum !== 'number' || !isStateName(state) || (tripped !== 0 && tripped !== 1)) {
    throw new BreakerStoreCorruptError(`unexpected record reply: ${JSON.stringify(reply)}`);
  }
  return {
    failuresInWindow: sum,
    state,
    tripped: tripped === 1,
    tripId: typeof tripId === 'string' && tripId !== '' ? tripId : undefined,
  };
}

/** Script errors tagged BREAKER_STORE_CORRUPT become the typed error; anything else passes through. */
function asStoreError(error: unknown): unknown {
  if (error instanceof Error && error.message.includes('BREAKER_STORE_CORRUPT')) {
    return new BreakerStoreCorruptError(error.message, { cause: error });
  }
  return error;
}
