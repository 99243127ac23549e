import type { Message } from 'rhea';

import type { PartitionStore } from './partitionStore';

export interface HubDescription {
  readonly hubName: string;
  readonly createdAt: number;
  readonly store: PartitionStore;
}

/** A reply body and its status, as the $management node answers. */
export interface ManagementReply {
  readonly status: number;
  readonly description: string;
  readonly body?: Record<string, unknown>;
}

/**
 * The two reads the client makes on `$management` (operation READ): `com.microsoft:eventhub` (hub
 * properties) and `com.microsoft:partition` (partition properties), with the field names
 * `@azure/event-hubs`' ManagementClient parses. Authorisation is checked by the caller.
 */
export function answerManagement(request: Message, hub: HubDescription): ManagementReply {
  const props = (request.application_properties ?? {}) as Record<string, unknown>;
  if (props.operation !== 'READ')
    return { status: 400, description: `unsupported operation ${String(props.operation)}` };
  if (typeof props.name !== 'string' || props.name.toLowerCase() !== hub.hubName.toLowerCase())
    return { status: 404, description: `no Event Hub ${String(props.name)}` };
  if (props.type === 'com.microsoft:eventhub') {
    return {
      status: 200,
      description: 'OK',
      body: {
        name: hub.hubName,
        created_at: new Date(hub.createdAt),
        partition_count: hub.store.partitionIds.length,
        partition_ids: [...hub.store.partitionIds],
      },
    };
  }
  if (props.type === 'com.microsoft:partition') {
    const partition = String(props.partition);
    if (!hub.store.partitionIds.includes(partition))
      return { status: 404, description: `no partition ${partition}` };
    const begin = hub.store.beginSequenceNumber(partition);
    // The last event is reported even once it expired: sequence numbers are never reused.
    const last = hub.store.lastEnqueued(partition);
    return {
      status: 200,
      description: 'OK',
      body: {
        name: hub.hubName,
        partition,
        // The earliest retained event: older ones expired past the hub's retention.
        begin_sequence_number: begin,
        last_enqueued_sequence_number: last?.sequenceNumber ?? -1,
        last_enqueued_offset: last?.offset ?? '-1',
        last_enqueued_time_utc: new Date(last === undefined ? 0 : Date.parse(last.enqueuedTimeUtc)),
        is_partition_empty: begin >= hub.store.size(partition),
      },
    };
  }
  return { status: 400, description: `unsupported type ${String(props.type)}` };
}
