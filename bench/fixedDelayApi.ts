import { once } from 'node:events';

import { spawnService, stopService } from '../sim/services/childProcesses';

export interface FixedDelayApi {
  /** The POST endpoint: every request answered 201 `{"result":"applied"}` after the delay. */
  readonly url: string;
  readonly healthUrl: string;
  /** TCP connections the API accepted so far: a client that reuses its connections keeps this small. */
  connections(): Promise<number>;
  /** CPU time (user + system, µs) the API's process has used so far. */
  cpuMicros(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The server, as plain JavaScript for `node -e`: it reads the body, waits the delay and answers; no
 * parsing, no storage, so what a request costs is the delay and the HTTP round trip, as for an API a
 * few milliseconds away whose own work is not the bound.
 */
const SERVER = `
const http = require('node:http');
const delayMs = Number(process.argv[1]);
const body = '{"result":"applied"}';
let connections = 0;
const server = http.createServer((req, res) => {
  if (req.url === '/connections') return void res.end(String(connections));
  if (req.url === '/cpu') { const u = process.cpuUsage(); return void res.end(String(u.user + u.system)); }
  req.resume();
  req.on('end', () => setTimeout(() => {
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
  }, delayMs));
});
server.on('connection', () => connections++);
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

/**
 * A local HTTP API in a process of its own (its CPU is not the bench's event loop) that answers every
 * request after a fixed `delayMs`: a latency-bound downstream, unlike Azurite, whose CPU is the bound.
 */
export async function startFixedDelayApi(delayMs: number): Promise<FixedDelayApi> {
  const child = spawnService(process.execPath, ['-e', SERVER, String(delayMs)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.setEncoding('utf8');
  const [first] = (await Promise.race([
    once(child.stdout!, 'data'),
    once(child, 'exit').then(() => {
      throw new Error('the fixed-delay API exited before it listened');
    }),
  ])) as [string];
  const base = `http://127.0.0.1:${first.trim()}`;
  return {
    url: `${base}/readings`,
    healthUrl: `${base}/health`,
    connections: async () => Number(await (await fetch(`${base}/connections`)).text()),
    cpuMicros: async () => Number(await (await fetch(`${base}/cpu`)).text()),
    close: () => stopService(child),
  };
}
