import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

import { sensorReadingSchema } from '../../src/hub/sensorReading';

/** How the downstream behaves right now. */
export type DownstreamMode =
  | { readonly kind: 'up' }
  /** Every connection is reset before an answer: the API is gone. */
  | { readonly kind: 'down' }
  /** Every request gets this status (503, 429 with `Retry-After`, 401 ...). */
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly retryAfter?: string;
      /** Raw body of the answer; default `{"error":"scripted"}`. */
      readonly body?: string;
    }
  /** Requests are accepted and never answered: the client's timeout must end them. */
  | { readonly kind: 'hang' };

export interface HeldRecord {
  readonly body: z.infer<typeof readingBodySchema>;
  readonly revision: number;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly idempotencyKey: string | undefined;
  /** Wall-clock arrival, for Retry-After checks. */
  readonly at: number;
}

const readingBodySchema = sensorReadingSchema.extend({
  version: z.string().min(1).max(100),
  eventPartition: z.string().max(10),
  eventSequenceNumber: z.number().int(),
});
const MAX_BODY_BYTES = 64 * 1024;

/**
 * A local HTTP API downstream that behaves as the HTTP sink expects a real one to (docs/your-own-
 * downstream.md): POST /readings stores the newest reading per sensor by `version`, replays an
 * `Idempotency-Key` it has seen with `Idempotent-Replayed: true`, validates bodies (400) and refuses
 * homes on request (422 ...); GET /health answers 200. It can go down, throttle, fail and hang.
 * Free of vitest, so the demo runs it too.
 */
export interface HttpDownstream {
  readonly baseUrl: string;
  /** The POST endpoint (SINK_HTTP_URL). */
  readonly url: string;
  /** The probe's endpoint (SINK_HTTP_HEALTH_URL). */
  readonly healthUrl: string;
  mode: DownstreamMode;
  /** The next `count` requests behave as `mode`, then the current mode applies again. */
  forNext(count: number, mode: DownstreamMode): void;
  /** Refuses every reading of this home with `status` (about this event). */
  reject(homeId: string, status?: number): void;
  held(homeId: string, sensorId: string): HeldRecord | undefined;
  /** Forgets the idempotency keys seen so far, as a real API does when its retention window ends. */
  forgetIdempotencyKeys(): void;
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

export async function startHttpDownstream(): Promise<HttpDownstream> {
  const records = new Map<string, HeldRecord>();
  const replies = new Map<string, { fingerprint: string; status: number; body: string }>();
  const rejected = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const once: DownstreamMode[] = [];
  let revision = 0;
  const state = { mode: { kind: 'up' } as DownstreamMode };

  const answer = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

  const postReading = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || key.length === 0 || key.length > 200) {
      answer(res, 400, { error: 'Idempotency-Key header required' });
      return;
    }
    const parsed = readingBodySchema.safeParse(safeJson(raw));
    if (!parsed.success) {
      answer(res, 400, { error: 'invalid reading' });
      return;
    }
    const refusal = rejected.get(parsed.data.homeId);
    if (refusal !== undefined) {
      answer(res, refusal, { error: 'home not accepted' });
      return;
    }
    const fingerprint = createHash('sha256').update(raw).digest('hex');
    const replay = replies.get(key);
    // As the IETF Idempotency-Key draft asks: a key reused for a different body is refused, not replayed.
    if (replay && replay.fingerprint !== fingerprint) {
      answer(res, 422, { error: 'Idempotency-Key already used for a different body' });
      return;
    }
    if (replay) {
      res
        .writeHead(replay.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' })
        .end(replay.body);
      return;
    }
    const id = `${parsed.data.homeId}/${parsed.data.sensorId}`;
    const existing = records.get(id);
    const stale = existing !== undefined && existing.body.version >= parsed.data.version;
    if (!stale) records.set(id, { body: parsed.data, revision: ++revision });
    const reply = {
      fingerprint,
      status: stale ? 200 : 201,
      body: JSON.stringify({ result: stale ? 'stale' : 'applied' }),
    };
    replies.set(key, reply);
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
  };

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const idempotencyKey = req.headers['idempotency-key'];
    requests.push({
      method: req.method ?? '',
      path,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
      at: Date.now(),
    });
    const mode = once.shift() ?? state.mode;
    if (mode.kind === 'down') {
      req.socket.destroy();
      return;
    }
    if (mode.kind === 'hang') return;
    if (mode.kind === 'status') {
      const headers = mode.retryAfter === undefined ? {} : { 'retry-after': mode.retryAfter };
      res
        .writeHead(mode.status, { 'content-type': 'application/json', ...headers })
        .end(mode.body ?? JSON.stringify({ error: 'scripted' }));
      return;
    }
    if (req.method === 'GET' && path === '/health') {
      answer(res, 200, { status: 'ok' });
      return;
    }
    if (req.method !== 'POST' || path !== '/readings') {
      answer(res, 404, { error: 'not found' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) answer(res, 413, { error: 'body too large' });
      else postReading(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    url: `${baseUrl}/readings`,
    healthUrl: `${baseUrl}/health`,
    get mode() {
      return state.mode;
    },
    set mode(mode: DownstreamMode) {
      state.mode = mode;
    },
    forNext: (count, mode) => {
      for (let i = 0; i < count; i++) once.push(mode);
    },
    reject: (homeId, status = 422) => rejected.set(homeId, status),
    held: (homeId, sensorId) => records.get(`${homeId}/${sensorId}`),
    forgetIdempotencyKeys: () => {
      replies.clear();
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
