/**
 * APPROVAL_REQUIRE_SIGNED_IN on every path that approves, wired from settings as in Azure: the operator
 * API's reset (an approval while the orchestration waits, the break-glass close otherwise) takes the
 * function key AND a listed signed-in principal; the key alone, or a principal not in APPROVERS,
 * changes nothing. Maintenance (enter and leave) takes the same. The approval page checks the same list;
 * there is no other door.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { BreakwaterWorld, FUNCTION_KEY } from '../../sim/world/breakwaterWorld';
import { parseBreakerStatus } from '../../src/orchestration/breakerStatus';
import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';

let world: BreakwaterWorld;
let tripId = '';
beforeAll(async () => {
  world = await BreakwaterWorld.create({
    storageConnectionString: inject('storageConnectionString'),
    settings: { APPROVAL_REQUIRE_SIGNED_IN: 'true', APPROVERS: 'oncall@example.com' },
  });
  tripId = (await world.runtime.breakerStore.openManually('signed-in drill', world.clock.now())) ?? '';
  world.clock.advance(5 * 60_000); // past the watchdog's grace: it starts the orchestration
  await world.runWatchdog();
  await world.durable.catchUp();
});
afterAll(() => world.close());

/** X-MS-CLIENT-PRINCIPAL(-NAME) as App Service authentication sets them for a signed-in user. */
const signedIn = (name: string) => ({
  'x-ms-client-principal-name': name,
  'x-ms-client-principal': Buffer.from(
    JSON.stringify({ auth_typ: 'aad', claims: [{ typ: 'preferred_username', val: name }] }),
  ).toString('base64'),
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${world.http.baseUrl}/api/${path}`, {
    method: 'POST',
    headers: { 'x-functions-key': FUNCTION_KEY, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

const status = () => parseBreakerStatus(world.durable.hosts.get(breakerInstanceId(tripId))?.customStatus);
const phase = () => Promise.resolve(status()?.phase);

describe('APPROVAL_REQUIRE_SIGNED_IN on the operator API', () => {
  it('the function key alone approves nothing: reset and forced reset answer 401', async () => {
    expect(await phase()).toBe('awaiting-approval');
    const attempts = [
      await post('breaker/reset', { by: 'oncall@example.com' }),
      await post('breaker/reset', { by: 'oncall@example.com', force: true }),
    ];
    for (const r of attempts) {
      expect(r.status).toBe(401);
      expect(r.json.error).toMatch(/signed in/);
    }
    await world.durable.catchUp();
    expect((await world.runtime.breakerStore.getState()).state).toBe('OPEN');
    expect(await phase()).toBe('awaiting-approval');
    expect(world.isDisabled()).toBe(true);
  });

  it('a signed-in principal not in APPROVERS is refused (403), whatever name it types', async () => {
    const r = await post('breaker/reset', { by: 'oncall@example.com' }, signedIn('mallory@example.com'));
    expect(r.status).toBe(403);
    expect(r.json.error).toMatch(/mallory@example\.com is not in APPROVERS/);
    // The internal approve route of earlier releases is gone: with a key and a listed principal it
    // is not found and approves nothing.
    const door = await post(
      'internal/breaker/approve',
      { tripId, approvedBy: 'oncall@example.com' },
      signedIn('oncall@example.com'),
    );
    expect(door.status).toBe(404);
    await world.durable.catchUp();
    expect(await phase()).toBe('awaiting-approval');
  });

  it('a listed signed-in approver approves, recorded under the principal, not the typed name', async () => {
    const r = await post('breaker/reset', { by: 'someone else' }, signedIn('OnCall@example.com'));
    expect(r.status).toBe(202);
    await world.durable.catchUp();
    expect(status()?.approvedBy).toBe('OnCall@example.com');
    expect((await world.runtime.breakerStore.getState()).state).not.toBe('OPEN');
  });
});

describe('APPROVAL_REQUIRE_SIGNED_IN on maintenance (entering stops consuming; leaving starts it again)', () => {
  const current = async () => {
    const res = await fetch(`${world.http.baseUrl}/api/breaker/maintenance`, {
      headers: { 'x-functions-key': FUNCTION_KEY },
    });
    return ((await res.json()) as { maintenance: Record<string, unknown> | null }).maintenance;
  };

  it('the function key alone, or a principal not in APPROVERS, neither enters nor leaves it', async () => {
    const enabledBefore = !world.isDisabled();
    const keyOnly = await post('breaker/maintenance', {
      action: 'enter',
      reason: 'drill',
      by: 'oncall@example.com',
    });
    expect(keyOnly.status).toBe(401);
    expect(keyOnly.json.error).toMatch(/signed in/);
    const stranger = await post(
      'breaker/maintenance',
      { action: 'enter', reason: 'drill' },
      signedIn('mallory@example.com'),
    );
    expect(stranger.status).toBe(403);
    expect(await current()).toBeNull();
    expect(!world.isDisabled()).toBe(enabledBefore);
  });

  it('a listed approver enters (recorded under the principal); the key alone cannot leave it', async () => {
    const entered = await post(
      'breaker/maintenance',
      { action: 'enter', reason: 'drill', by: 'someone else' },
      signedIn('oncall@example.com'),
    );
    expect(entered.status).toBe(200);
    expect(await current()).toMatchObject({ reason: 'drill', by: 'oncall@example.com' });
    const keyOnly = await post('breaker/maintenance', { action: 'leave' });
    expect(keyOnly.status).toBe(401);
    expect(await current()).toMatchObject({ reason: 'drill' });
    expect(world.isDisabled()).toBe(true);
    const left = await post('breaker/maintenance', { action: 'leave' }, signedIn('oncall@example.com'));
    expect(left.status).toBe(200);
    expect(await current()).toBeNull();
  });
});
