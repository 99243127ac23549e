import type { OrchestrationContext } from 'durable-functions';
import * as df from 'durable-functions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DurableBackend } from '../../sim/durable/durableBackend';
import { SimClock } from '../../sim/host/simClock';

// The durable test backend decides a start over an existing instance like the extension (refuse a
// live one, replace a finished one) or like Azure Storage's read-then-write (racing starts both win).
beforeAll(() => {
  df.app.orchestration('WaitsForGo', function* (context: OrchestrationContext) {
    yield context.df.waitForExternalEvent('Go');
    return 'done';
  });
});

const backends: DurableBackend[] = [];
afterAll(() => Promise.all(backends.map((b) => b.close())));

async function backend(startConflict: 'refuse' | 'race') {
  const b = new DurableBackend(new SimClock(Date.UTC(2026, 0, 1)), { startConflict });
  await b.start();
  backends.push(b);
  const base = String(b.clientData.baseUrl);
  const start = (id: string) =>
    fetch(`${base}/orchestrators/WaitsForGo/${id}`, { method: 'POST', body: '{}' });
  const raise = (id: string) =>
    fetch(`${base}/instances/${id}/raiseEvent/Go`, { method: 'POST', body: '{}' });
  return { b, start, raise };
}

describe('the durable test backend', () => {
  it('refuses a start over a live instance with 500 and replaces a finished one', async () => {
    const { b, start, raise } = await backend('refuse');
    expect((await start('a')).status).toBe(202);
    await b.catchUp();
    expect((await start('a')).status).toBe(500);
    expect(b.refusedStarts.map((r) => r.instanceId)).toEqual(['a']);
    expect((await raise('a')).status).toBe(202);
    await b.catchUp();
    expect(b.hosts.get('a')?.runtimeStatus).toBe('Completed');
    expect((await start('a')).status).toBe(202);
    await b.catchUp();
    expect(b.hosts.get('a')?.runtimeStatus).toBe('Running');
    expect(b.starts.map((s) => s.instanceId)).toEqual(['a', 'a']);
  });

  it('lets two racing starts both succeed with Azure Storage semantics; one instance runs', async () => {
    const { b, start } = await backend('race');
    b.onStartRequest = async () => {
      b.onStartRequest = undefined;
      expect((await start('r')).status).toBe(202); // the other starter, inside this one's read-then-write
    };
    expect((await start('r')).status).toBe(202);
    await b.catchUp();
    expect(b.starts.map((s) => s.instanceId)).toEqual(['r', 'r']);
    expect(b.refusedStarts).toEqual([]);
    expect([...b.hosts.keys()]).toEqual(['r']);
    // The replaced instance never ran: only the later one has a history.
    expect(b.hosts.get('r')?.episodes).toHaveLength(1);
  });
});
