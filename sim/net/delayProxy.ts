import net from 'node:net';

export interface DelayProxy {
  readonly port: number;
  /** Client connections accepted so far: a client that reuses its connections keeps this small. */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * A TCP hop in front of a local service that holds every chunk a client sends for `delayMs` before
 * passing it on: each request then pays about that much network latency, as a downstream a few
 * milliseconds away would. A fixed delay keeps the chunks of one connection in order.
 */
export async function startDelayProxy(targetPort: number, delayMs: number): Promise<DelayProxy> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((client) => {
    connections++;
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      // Each chunk goes on as soon as its delay is over: Nagle would hold a small one back for an ACK.
      s.setNoDelay(true);
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => {
      setTimeout(() => upstream.write(chunk), delayMs);
    });
    client.on('end', () => setTimeout(() => upstream.end(), delayMs));
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('delay proxy has no TCP port');
  return {
    port: address.port,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}
