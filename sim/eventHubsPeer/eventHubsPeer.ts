import type { AddressInfo, Server, Socket } from 'node:net';
import { type Connection, create_container, type EventContext, type Message, type Sender } from 'rhea';

import {
  receiveAddress,
  remoteTerminus,
  selectorOf,
  sendAddressPartition,
  sequenceAtOffset,
} from './addresses';
import { BadTransferError, decodeTransfer, firstSequenceOf, toDelivery } from './eventMessages';
import { answerManagement, type ManagementReply } from './management';
import { partitionForKey, type PartitionStore } from './partitionStore';
import { claimCovers, type SasKey, verifySasToken } from './sasToken';

export interface EventHubsPeerOptions {
  readonly hubName: string;
  readonly store: PartitionStore;
  /** Shared access policies a token may be signed with. */
  readonly keys: readonly [SasKey, ...SasKey[]];
  /** Consumer groups receive links may name (case-insensitive); default `$Default`. */
  readonly consumerGroups?: readonly string[];
  /** Enqueued times and token expiry are judged by this clock (ms since the epoch). */
  readonly clock: () => number;
  readonly port?: number;
}

export interface EventHubsPeer {
  readonly port: number;
  /** A connection string for the real client: `UseDevelopmentEmulator=true` selects plain TCP. */
  connectionString(key?: SasKey): string;
  /** Delivers events appended to the store outside the peer to open receive links. */
  flush(): void;
  /** Receive links opened on a partition so far (each a reader's subscription), for tests that count reads. */
  readonly receiveLinksOpened: number;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const CBS = '$cbs';
const MANAGEMENT = '$management';

/**
 * An AMQP 1.0 server (rhea) speaking enough of Event Hubs for the real `@azure/event-hubs` client:
 * SASL ANONYMOUS, claims-based authorisation on `$cbs` (put-token with a SAS token, verified),
 * `$management` READ of hub and partition properties, send links to the hub (partition chosen by
 * `x-opt-partition-key` or round robin) and to `<hub>/Partitions/<id>`, and receive links from
 * `<hub>/ConsumerGroups/<cg>/Partitions/<id>` with a sequence-number filter. See README.md.
 */
export async function startEventHubsPeer(options: EventHubsPeerOptions): Promise<EventHubsPeer> {
  const { hubName, store } = options;
  const createdAt = options.clock();
  const groups = (options.consumerGroups ?? ['$Default']).map((g) => g.toLowerCase());
  const claims = new Map<Connection, Map<string, number>>();
  const readers = new Set<{ sender: Sender; partitionId: string; next: number }>();
  let roundRobin = 0;
  let receiveLinksOpened = 0;

  const authorised = (connection: Connection, address: string) => {
    const now = options.clock();
    return [...(claims.get(connection) ?? new Map<string, number>())].some(
      ([resource, expiresAt]) => expiresAt > now && claimCovers(resource, address),
    );
  };
  const reply = (context: EventContext, request: Message, answer: ManagementReply) => {
    const to = typeof request.reply_to === 'string' ? request.reply_to : '';
    const link = context.connection.find_sender((s: Sender) => s.name === to || s.source.address === to);
    link?.send({
      correlation_id: request.message_id,
      application_properties: { 'status-code': answer.status, 'status-description': answer.description },
      body: answer.body,
    });
  };
  const pump = () => {
    for (const reader of readers) {
      while (reader.sender.sendable() && reader.next < store.size(reader.partitionId)) {
        const [event] = store.read(reader.partitionId, reader.next, 1);
        if (event === undefined) break;
        reader.sender.send(toDelivery(event));
        reader.next = event.sequenceNumber + 1;
      }
    }
  };

  /** `$cbs` put-token and `$management` reads: request/response over a pair of links. */
  const answerControl = (connection: Connection, address: string, request: Message): ManagementReply => {
    const props = (request.application_properties ?? {}) as Record<string, unknown>;
    const token: unknown = address === CBS ? request.body : props.security_token;
    const check = verifySasToken(typeof token === 'string' ? token : '', options.keys, options.clock());
    if (!check.ok) return { status: 401, description: check.reason };
    if (address === CBS) {
      const perConnection = claims.get(connection) ?? new Map<string, number>();
      perConnection.set(typeof props.name === 'string' ? props.name : check.resource, check.expiresAt);
      claims.set(connection, perConnection);
      return { status: 200, description: 'OK' };
    }
    if (!claimCovers(check.resource, hubName)) return { status: 401, description: 'token not for this hub' };
    return answerManagement(request, { hubName, createdAt, store });
  };

  const storeTransfer = (address: string, payload: Message | Buffer, format: number | undefined) => {
    const fixed = sendAddressPartition(address, hubName) ?? null;
    const count = store.partitionIds.length;
    const now = options.clock();
    for (const event of decodeTransfer(payload, format)) {
      const partition =
        fixed ??
        (event.partitionKey === undefined
          ? (store.partitionIds[roundRobin++ % count] ?? '0')
          : partitionForKey(event.partitionKey, count));
      store.sendTo(partition, event.body, event.properties, now);
    }
  };

  // autoaccept off: a transfer the peer cannot store is rejected, not silently accepted.
  const container = create_container({ id: 'breakwater-eventhubs-peer', autoaccept: false });
  (container.sasl_server_mechanisms as { enable_anonymous(): void }).enable_anonymous();

  container.on('receiver_open', (context: EventContext) => {
    const receiver = context.receiver;
    if (receiver === undefined) return;
    const { address } = remoteTerminus(receiver, 'target');
    receiver.set_target({ address });
    if (address === CBS || address === MANAGEMENT) return;
    const partition = sendAddressPartition(address, hubName);
    if (partition === undefined || (partition !== null && !store.partitionIds.includes(partition)))
      receiver.close({ condition: 'amqp:not-found', description: `no such entity: ${address}` });
    else if (!authorised(context.connection, address))
      receiver.close({ condition: 'amqp:unauthorized-access', description: `no valid claim for ${address}` });
  });

  container.on('sender_open', (context: EventContext) => {
    const sender = context.sender;
    if (sender === undefined) return;
    const { address, filter } = remoteTerminus(sender, 'source');
    sender.set_source({ address, ...(filter ? { filter } : {}) });
    if (address === CBS || address === MANAGEMENT) return;
    const target = receiveAddress(address, hubName);
    if (
      target === undefined ||
      !groups.includes(target.group) ||
      !store.partitionIds.includes(target.partitionId)
    ) {
      sender.close({ condition: 'amqp:not-found', description: `no such entity: ${address}` });
      return;
    }
    if (!authorised(context.connection, address)) {
      sender.close({ condition: 'amqp:unauthorized-access', description: `no valid claim for ${address}` });
      return;
    }
    try {
      const { partitionId } = target;
      const next = firstSequenceOf(selectorOf(filter), (o) => sequenceAtOffset(store, partitionId, o));
      readers.add({ sender, partitionId, next: Math.min(next, store.size(partitionId)) });
      receiveLinksOpened++;
    } catch (error) {
      sender.close({ condition: 'amqp:not-implemented', description: String(error) });
    }
  });

  container.on('sendable', pump);
  container.on('sender_close', (context: EventContext) => {
    for (const r of readers) if (r.sender === context.sender) readers.delete(r);
  });

  container.on('message', (context: EventContext) => {
    const { message: request, delivery, receiver } = context;
    if (request === undefined || delivery === undefined || receiver === undefined) return;
    const address = remoteTerminus(receiver, 'target').address;
    if (address === CBS || address === MANAGEMENT) {
      delivery.accept();
      reply(context, request, answerControl(context.connection, address, request));
      return;
    }
    try {
      // rhea leaves a transfer of a non-zero message format undecoded: `message` is then its bytes.
      const { format } = context as { format?: number };
      storeTransfer(address, request, format);
      delivery.accept();
      pump();
    } catch (error) {
      const condition = error instanceof BadTransferError ? 'amqp:decode-error' : 'amqp:internal-error';
      delivery.reject({ condition, description: String(error) });
    }
  });

  container.on('disconnected', (context: EventContext) => {
    claims.delete(context.connection);
    for (const r of readers) if (r.sender.connection === context.connection) readers.delete(r);
  });
  // A client that goes away mid-operation is not the peer's error.
  container.on('error', () => undefined);

  const server: Server = container.listen({ port: options.port ?? 0, host: HOST });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    connectionString: (key = options.keys[0]) =>
      `Endpoint=sb://${HOST}:${port};SharedAccessKeyName=${key.name};SharedAccessKey=${key.key};` +
      `EntityPath=${hubName};UseDevelopmentEmulator=true`,
    flush: pump,
    get receiveLinksOpened() {
      return receiveLinksOpened;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}
