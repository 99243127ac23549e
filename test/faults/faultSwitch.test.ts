import { TableClient } from '@azure/data-tables';
import { HttpRequest, type HttpResponseInit, InvocationContext } from '@azure/functions';
import { describe, expect, inject, it } from 'vitest';

import { SimClock } from '../../sim/host/simClock';
import { InjectedFaultError } from '../../src/faults/errors';
import { makeFaultHandler } from '../../src/faults/faultHandler';
import { makeTableFaultSwitchStore } from '../../src/faults/tableFaultSwitchStore';
import { withFaultSwitch } from '../../src/faults/withFaultSwitch';
import { classifyFailure } from '../../src/sinks/classifyError';
import { makeHomeActivityTableSink } from '../../src/sinks/homeActivityTableSink';
import { reading, receivedEvent } from '../support/sensorEvents';

const table = (name: string) =>
  TableClient.fromConnectionString(inject('storageConnectionString'), name, {
    allowInsecureConnection: true,
  });
const unique = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 8)}`;

/** The fault endpoint and two instances' sample sinks over one switch row on Azurite. */
async function fixture(enabled = true) {
  const clock = new SimClock(Date.UTC(2026, 2, 1, 3));
  const store = makeTableFaultSwitchStore(table(unique('Breaker')));
  const sinkTable = table(unique('Activity'));
  await sinkTable.createTable();
  const logs: string[] = [];
  const logger = { warn: (...args: unknown[]) => logs.push(args.join(' ')) };
  const instance = () =>
    withFaultSwitch(makeHomeActivityTableSink(sinkTable), { store, clock, logger, cacheMs: 1_000 });
  const handler = makeFaultHandler({ enabled, maxMinutes: 15, store, clock });
  const call = async (method: string, body?: string) => {
    const context = new InvocationContext({
      logHandler: (_level, ...args) => logs.push(args.join(' ')),
    });
    const request = new HttpRequest({
      method,
      url: 'https://app.example/api/breaker/fault',
      ...(body === undefined ? {} : { body: { string: body } }),
    });
    const res = (await handler(request, context)) as HttpResponseInit;
    return { status: res.status ?? 200, body: res.jsonBody as Record<string, unknown> };
  };
  let n = 0;
  const write = (sink: ReturnType<typeof instance>) => {
    n++;
    return sink.write(
      reading({ homeId: 'home-f', sensorId: `door-${n}` }),
      receivedEvent(Buffer.from('{}'), n),
      new AbortController().signal,
    );
  };
  return { clock, call, logs, instance, write };
}

describe('the fault switch', () => {
  it('answers 404 and changes nothing when FAULT_SWITCH_ENABLED is not true', async () => {
    const f = await fixture(false);
    const sink = f.instance();
    expect((await f.call('POST', JSON.stringify({ down: true, minutes: 5 }))).status).toBe(404);
    expect((await f.call('GET')).status).toBe(404);
    await expect(f.write(sink)).resolves.toBe('applied');
    expect(f.logs.join('\n')).toContain('refused, the switch is off');
  });

  it.each([
    ['no minutes with down', { down: true }, 'minutes'],
    ['zero minutes', { down: true, minutes: 0 }, 'minutes'],
    ['more than FAULT_SWITCH_MAX_MINUTES', { down: true, minutes: 16 }, 'minutes'],
    ['a fraction of a minute', { down: true, minutes: 1.5 }, 'minutes'],
    ['minutes as text', { down: true, minutes: '5' }, 'minutes'],
    ['down as text', { down: 'yes', minutes: 5 }, 'down'],
    ['an unknown field', { down: false, sink: 'http' }, '(body)'],
    ['a control character in by', { down: false, by: 'a\u0007b' }, 'by'],
    ['a by of 101 characters', { down: false, by: 'x'.repeat(101) }, 'by'],
  ])('refuses %s with a 400 naming the field', async (_what, body, field) => {
    const f = await fixture();
    const res = await f.call('POST', JSON.stringify(body));
    expect(res.status).toBe(400);
    expect((res.body.issues as { path: string }[]).map((i) => i.path)).toContain(field);
    expect((await f.call('GET')).body).toMatchObject({ down: false });
  });

  it('refuses a body that is not JSON or too large', async () => {
    const f = await fixture();
    expect((await f.call('POST', 'down=true')).status).toBe(400);
    expect((await f.call('POST', JSON.stringify({ down: false, by: 'x'.repeat(20_000) }))).status).toBe(400);
  });

  it('takes every instance’s sample sink down as an outage, logged, until it switches itself off', async () => {
    const f = await fixture();
    const [a, b] = [f.instance(), f.instance()];
    await expect(f.write(a)).resolves.toBe('applied');

    const set = await f.call('POST', JSON.stringify({ down: true, minutes: 2, by: 'verify run r1' }));
    expect(set).toMatchObject({ status: 200, body: { down: true, until: '2026-03-01T03:02:00.000Z' } });
    f.clock.advance(1_000); // past the cache of instance a
    for (const sink of [a, b]) {
      const error: unknown = await f.write(sink).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InjectedFaultError);
      expect(classifyFailure(error)).toMatchObject({ scope: 'outage', kind: 'transient' });
      await expect(sink.probe(new AbortController().signal)).rejects.toBeInstanceOf(InjectedFaultError);
    }
    expect(f.logs.filter((l) => l.includes('DOWN on purpose until 2026-03-01T03:02:00.000Z'))).toHaveLength(
      3,
    );
    expect(f.logs.join('\n')).toContain('set by verify run r1');

    f.clock.advance(2 * 60_000);
    await expect(f.write(a)).resolves.toBe('applied');
    expect((await f.call('GET')).body).toEqual({ down: false, until: null, by: null });
    expect(f.logs.at(-1)).toContain('the sample sink is back');
  });

  it('clears at once on down: false', async () => {
    const f = await fixture();
    const sink = f.instance();
    await f.call('POST', JSON.stringify({ down: true, minutes: 10 }));
    await expect(f.write(sink)).rejects.toBeInstanceOf(InjectedFaultError);
    expect((await f.call('POST', JSON.stringify({ down: false, by: 'verify cleanup' }))).status).toBe(200);
    f.clock.advance(1_000);
    await expect(f.write(sink)).resolves.toBe('applied');
    expect(f.logs.join('\n')).toContain('cleared by verify cleanup');
  });
});
