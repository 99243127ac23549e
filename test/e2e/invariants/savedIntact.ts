import { BlobServiceClient } from '@azure/storage-blob';

import type { BreakwaterWorld } from '../../../sim/world/breakwaterWorld';
import { keyOf, type ScenarioReport } from '../../../sim/world/scenario';
import { makeSavedEvents } from '../../../src/retention/savedEvents';

/**
 * The saved events still under `saved/` are complete and drainable: each blob reads back, through the
 * app's own reader, as the event the hub was sent (body byte for byte, its properties, an offset), not
 * as raw bytes the drain would dead-letter as poison. Read past any fault (the app's plain container).
 */
export async function savedIntactViolations(
  world: BreakwaterWorld,
  report: ScenarioReport,
): Promise<string[]> {
  if (report.savedLeft.size === 0) return [];
  const container = BlobServiceClient.fromConnectionString(
    world.env.AzureWebJobsStorage ?? '',
  ).getContainerClient(world.env.DEAD_LETTER_CONTAINER ?? '');
  const saved = makeSavedEvents(container);
  const sent = new Map(report.sent.map((e) => [keyOf(e.partitionId, e.sequenceNumber), e]));
  const byPartition = new Map<string, number[]>();
  for (const key of report.savedLeft) {
    const [partitionId = '?', seq = '-1'] = key.split('/');
    byPartition.set(partitionId, [...(byPartition.get(partitionId) ?? []), Number(seq)]);
  }
  const broken: string[] = [];
  for (const [partitionId, seqs] of byPartition) {
    const { events, intact } = await saved.read(partitionId, seqs);
    const read = new Map(events.map((e) => [e.sequenceNumber, e]));
    const whole = new Set(intact);
    for (const seq of seqs) {
      const key = keyOf(partitionId, seq);
      const event = read.get(seq);
      const original = sent.get(key);
      if (
        event === undefined ||
        original === undefined ||
        !whole.has(seq) ||
        event.offset === undefined ||
        !event.body.equals(original.body) ||
        JSON.stringify(event.properties) !== JSON.stringify(original.properties)
      )
        broken.push(key);
    }
  }
  return broken.length === 0
    ? []
    : [`${broken.length} saved blob(s) not complete or not drainable: ${broken.slice(0, 10).join(', ')}`];
}
