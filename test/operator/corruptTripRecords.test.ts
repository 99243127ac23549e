import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { invokeHttp } from '../../sim/host/httpInvoke';
import { signApprovalToken, verifyApprovalToken } from '../../src/approval/approvalToken';
import { APPROVAL_FUNCTION, registerApproval } from '../../src/approval/registerApproval';
import type { BreakerStore } from '../../src/breaker/breakerStore';
import { breakerKeys, makeRedisBreakerStore } from '../../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../../src/breaker/redisClient';
import { OperatorFunction, registerOperator } from '../../src/operator/registerOperator';
import { durableOrchestrationControl } from '../../src/orchestration/durableOrchestrationControl';
import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { freshMaintenanceRecord } from '../support/maintenanceRecords';
import { type RecordingDurableServer, startRecordingDurableServer } from '../support/recordingDurableServer';
import { FN, memoryTriggerSwitch, POLICY } from './operatorFixture';

// Stored trip records are data someone (a bug, an old version, a hand edit) may have broken. Every
// read path survives them: status 200, dashboard, history, and the approval page of the current trip.
const KEY = 'corrupt-records-signing-key-0123456789abcdef';
const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const name = `corrupt${Date.now().toString(36)}`;
const admin = new Redis(inject('redisUrl'));
let store: BreakerStore;
let durable: RecordingDurableServer;
let tripId: string;

beforeAll(async () => {
  durable = await startRecordingDurableServer();
  store = makeRedisBreakerStore({
    redis: createBreakerRedis(inject('redisUrl')),
    name,
    policy: {
      threshold: POLICY.threshold,
      probationThreshold: POLICY.probationThreshold,
      windowMs: POLICY.windowSeconds * 1000,
      bucketMs: POLICY.bucketSeconds * 1000,
      historyLimit: 10,
    },
  });
  const clock = { now: () => NOW };
  const orchestration = durableOrchestrationControl(FN);
  const deadLetterCount = () => Promise.resolve(0);
  registerOperator({
    functionName: FN,
    clock,
    policy: POLICY,
    store,
    triggerSwitch: memoryTriggerSwitch(),
    maintenance: freshMaintenanceRecord(FN),
    deadLetterCount,
    orchestration,
  });
  registerApproval({
    functionName: FN,
    clock,
    verifyToken: (token, at) => verifyApprovalToken(token, [KEY], at),
    store,
    deadLetterCount,
    orchestration,
  });

  tripId = (await store.openManually('drill', NOW - 60_000)) ?? '';
  durable.instances.set(breakerInstanceId(tripId), {
    name: 'BreakerOrchestrator',
    input: { tripId },
    runtimeStatus: 'Running',
    customStatus: { phase: 'awaiting-approval', tripId },
  });
  const { trips } = breakerKeys(name);
  // The current trip's sample gets a null; older records are broken in the ways seen in the wild.
  const current = JSON.parse((await admin.lindex(trips, 0)) ?? '{}') as { sample: unknown[] };
  current.sample = [null, { eventKey: 'p0-s1', kind: 'transient', message: 'sink answered 503' }, 7];
  await admin.lset(trips, 0, JSON.stringify(current));
  await admin.rpush(
    trips,
    JSON.stringify({
      tripId: 'old-range',
      cause: 'threshold',
      openedAt: 1e20,
      failuresInWindow: 3,
      sample: [],
    }),
    JSON.stringify({
      tripId: 'old-text',
      cause: 'threshold',
      openedAt: 'yesterday',
      failuresInWindow: 3,
      sample: [],
    }),
    JSON.stringify({
      tripId: 'old-closed',
      cause: 'manual',
      openedAt: NOW - 9e6,
      failuresInWindow: 0,
      sample: [],
      closedAt: -1e17,
    }),
    'not json at all',
  );
});
afterAll(async () => {
  await store.close();
  await admin.quit();
  await durable.close();
});

const get = (fn: string, url: string) =>
  invokeHttp(fn, { method: 'GET', url }, { durableClient: durable.clientData });

describe('corrupt trip records', () => {
  it('status answers 200 with the current trip; the dashboard and history show the rest as unreadable', async () => {
    const status = await get(OperatorFunction.status, 'https://b.example/api/breaker/status');
    expect(status.status).toBe(200);
    const body = JSON.parse(status.body) as { lastTrip: { tripId: string; sample: unknown[] } };
    expect(body.lastTrip).toMatchObject({ tripId, sample: [{ eventKey: 'p0-s1' }] });

    const history = await get(OperatorFunction.history, 'https://b.example/api/breaker/history');
    expect(history.status).toBe(200);
    const trips = (JSON.parse(history.body) as { trips: Record<string, unknown>[] }).trips;
    expect(trips.map((t) => [t.tripId, typeof t.unreadable])).toEqual([
      [tripId, 'undefined'],
      ['old-range', 'string'],
      ['old-text', 'string'],
      // Only its bad close time is dropped: the rest of the record reads.
      ['old-closed', 'undefined'],
      [null, 'string'],
    ]);
    expect(trips[3]).toMatchObject({ closedAt: null });

    const dashboard = await get(OperatorFunction.dashboard, 'https://b.example/api/breaker/dashboard');
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toMatch(/unreadable/);
  });

  it('the approval page of the current trip is not blocked by them', async () => {
    const token = signApprovalToken({ functionName: FN, tripId, expiresAt: NOW + 3_600_000 }, [KEY], NOW);
    const page = await get(
      APPROVAL_FUNCTION,
      `https://b.example/api/approve?token=${encodeURIComponent(token)}`,
    );
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/Approve restart\?/);
    expect(page.body).toMatch(/sink answered 503/);
  });
});
