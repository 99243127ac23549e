import type { HubEvent } from './eventHubModel';
import { rpcTriggerMetadata, type WireOptions } from './triggerWire';

/**
 * The RPC shape in which the host hands a `cardinality: 'many'`, `dataType: 'binary'` batch to the
 * worker: bodies as `collectionBytes`, metadata in its wire types (64-bit integer and string
 * collections, enqueued times without a zone).
 */
export function toRpcBatch(events: readonly HubEvent[], wire: WireOptions = {}) {
  return {
    trigger: { collectionBytes: { bytes: events.map((e) => new Uint8Array(e.body)) } },
    triggerMetadata: rpcTriggerMetadata(events[0]?.partitionId ?? '0', events, wire),
  };
}
