import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { type EventHubsPeer, startEventHubsPeer } from '../../sim/eventHubsPeer/eventHubsPeer';
import { partitionForKey } from '../../sim/eventHubsPeer/partitionStore';
import { EventHubModel } from '../../sim/host/eventHubModel';
import { TriggerHostModel } from '../../sim/host/triggerHostModel';
import { freePort } from '../../sim/services/freePort';
import { BreakwaterWorld, FUNCTION_NAME } from '../../sim/world/breakwaterWorld';
import { supersededInItsBatch } from '../../sim/world/orderingInWorld';

const root = path.join(__dirname, '../..');
const KEY = { name: 'RootManageSharedAccessKey', key: 'produce-test-key' };

/** Runs `npm run produce -- <args>` as a person would (the script through tsx), outside this process. */
function produce(args: readonly string[]) {
  const started = Date.now();
  return new Promise<{ code: number; stdout: string; stderr: string; ms: number }>((resolve) => {
    execFile(
      path.join(root, 'node_modules/.bin/tsx'),
      ['scripts/produce-events.ts', ...args],
      { cwd: root, timeout: 60_000, env: { ...process.env, EventHubConnection: '', EVENTHUB_NAME: '' } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      },
    );
  });
}

describe('npm run produce', () => {
  it('against a closed port exits non-zero within 10 s, naming the address and the cause', async () => {
    const port = await freePort();
    const connection = `Endpoint=sb://127.0.0.1:${port};SharedAccessKeyName=k;SharedAccessKey=s;UseDevelopmentEmulator=true`;
    const run = await produce(['--connection', connection, '--hub', 'sensor-readings', '--count', '20']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.ms).toBeLessThan(10_000);
    expect(run.stderr).toContain(`Event Hubs at 127.0.0.1:${port} (hub "sensor-readings")`);
    expect(run.stderr).toContain('ECONNREFUSED');
    expect(run.stderr).not.toContain('SharedAccessKey=s');
  }, 30_000);

  describe('against the Event Hubs peer', () => {
    let world: BreakwaterWorld;
    let hub: EventHubModel;
    let peer: EventHubsPeer;
    beforeAll(async () => {
      // The script stamps readings with the real time; the hub enqueues them by the world's clock, so the
      // world starts now (a clock months behind would make every reading one from the future).
      world = await BreakwaterWorld.create({
        storageConnectionString: inject('storageConnectionString'),
        startAt: Date.now(),
      });
      hub = new EventHubModel(16);
      peer = await startEventHubsPeer({
        hubName: 'sensor-readings',
        store: hub,
        keys: [KEY],
        clock: () => world.clock.now(),
      });
    });
    afterAll(async () => {
      await peer.close();
      await world.close();
    });

    it('delivers --count 200 events by partition key, and the trigger model processes every one', async () => {
      const run = await produce([
        '--connection',
        peer.connectionString(),
        '--count',
        '200',
        '--rate',
        '0',
        '--homes',
        '25',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('done: 200 events (0 poison) to sensor-readings from 25 homes');

      const sent = hub.all();
      expect(sent).toHaveLength(200);
      for (const event of sent) {
        const homeId = (JSON.parse(event.body.toString()) as { homeId: string }).homeId;
        expect(event.partitionId, homeId).toBe(partitionForKey(homeId, 16));
      }

      const host = new TriggerHostModel({
        functionName: FUNCTION_NAME,
        hub,
        clock: world.clock,
        isDisabled: () => Promise.resolve(world.isDisabled()),
      });
      for (let round = 0; round < 20 && !host.drained; round++) {
        await host.tick();
        world.clock.advance(1_000);
      }
      expect(host.drained).toBe(true);
      const written = new Set(world.writes.map((w) => `${w.partitionId}/${w.sequenceNumber}`));
      // ORDERING=key writes no reading that a later one of its key superseded in its batch.
      const superseded = supersededInItsBatch(world.writes, host.invocations);
      const expected = sent.filter((e) => !superseded(e));
      expect(expected.length).toBeGreaterThan(0);
      expect(written).toEqual(new Set(expected.map((e) => `${e.partitionId}/${e.sequenceNumber}`)));
    }, 60_000);
  });
});
