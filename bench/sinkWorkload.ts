import type { ReceivedEvent } from '../src/hub/receivedEvent';

export const BATCH = 100;

/**
 * The readings of one batch, as a hub partition delivers them (homes interleaved). `bursts`: 20 homes
 * with 5 readings each over 3 sensors (a door opened and closed, motion, a window), as busy homes send;
 * `spread`: 100 homes with one reading each. Homes cycle through a pool of `pool` homes, so after the
 * first batches every write replaces an existing row; versions grow batch by batch.
 */
export function makeWorkload(kind: 'bursts' | 'spread', prefix: string, pool: number) {
  const perHome = kind === 'bursts' ? 5 : 1;
  const homes = BATCH / perHome;
  const sensors = ['door-1', 'motion', 'door-1', 'motion', 'window'];
  let batchNo = 0;
  return (): ReceivedEvent[] => {
    const b = batchNo++;
    return Array.from({ length: BATCH }, (_, index) => {
      const n = b * BATCH + index;
      const home = (b * homes + (index % homes)) % pool;
      const body = Buffer.from(
        JSON.stringify({
          homeId: `${prefix}-home-${home}`,
          sensorId: kind === 'bursts' ? sensors[Math.floor(index / homes)] : 'door-1',
          kind: 'contact',
          state: n % 2 === 0 ? 'open' : 'closed',
          occurredAt: new Date(Date.UTC(2026, 0, 1) + n).toISOString(),
        }),
      );
      return {
        ...{ index, body, partitionId: '0', sequenceNumber: n, offset: String(n) },
        ...{ enqueuedTimeUtc: new Date().toISOString(), properties: {}, systemProperties: {} },
      };
    });
  };
}
