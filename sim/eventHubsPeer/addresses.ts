import type { Receiver, Sender } from 'rhea';

import { BadTransferError } from './eventMessages';
import type { PartitionStore } from './partitionStore';

/** The terminus the client attached with (rhea keeps it on the link but does not type it). */
export interface RemoteTerminus {
  readonly address: string;
  readonly filter: Record<string, unknown> | undefined;
}

export function remoteTerminus(link: Sender | Receiver, end: 'source' | 'target'): RemoteTerminus {
  const attach = (link as unknown as { remote?: { attach?: Record<string, unknown> } }).remote?.attach;
  const terminus = attach?.[end] as { address?: unknown; filter?: Record<string, unknown> } | undefined;
  return {
    address: typeof terminus?.address === 'string' ? terminus.address : '',
    filter: terminus?.filter,
  };
}

/** `<hub>` → null (any partition); `<hub>/Partitions/<id>` → id; anything else → undefined. */
export function sendAddressPartition(address: string, hubName: string): string | null | undefined {
  const parts = address.split('/');
  if (parts[0]?.toLowerCase() !== hubName.toLowerCase()) return undefined;
  if (parts.length === 1) return null;
  return parts.length === 3 && parts[1]?.toLowerCase() === 'partitions' ? parts[2] : undefined;
}

/** `<hub>/ConsumerGroups/<group>/Partitions/<id>` → its group (lower case) and partition. */
export function receiveAddress(address: string, hubName: string) {
  const parts = address.split('/');
  if (parts.length !== 5 || parts[0]?.toLowerCase() !== hubName.toLowerCase()) return undefined;
  if (parts[1]?.toLowerCase() !== 'consumergroups' || parts[3]?.toLowerCase() !== 'partitions')
    return undefined;
  return { group: (parts[2] ?? '').toLowerCase(), partitionId: parts[4] ?? '' };
}

/** The selector-filter text of a receive link's source, if any. */
export function selectorOf(filter: Record<string, unknown> | undefined): string | undefined {
  const clause = filter?.['apache.org:selector-filter:string'] as { value?: unknown } | string | undefined;
  if (clause === undefined) return undefined;
  return typeof clause === 'string' ? clause : String(clause.value);
}

/**
 * The sequence number of the event at `offset`. An offset before the retained range (an expired event's)
 * gives the number just before the earliest retained event, so the reader starts there as the service's does.
 */
export function sequenceAtOffset(store: PartitionStore, partitionId: string, offset: string): number {
  const retained = store.read(partitionId, 0, store.size(partitionId));
  const found = retained.find((e) => e.offset === offset);
  if (found !== undefined) return found.sequenceNumber;
  const first = retained[0];
  const before = /^\d+$/.test(offset) && (first === undefined || Number(offset) < Number(first.offset));
  if (before && store.beginSequenceNumber(partitionId) > 0) return store.beginSequenceNumber(partitionId) - 1;
  throw new BadTransferError(`no event at offset ${offset} in partition ${partitionId}`);
}
