import { randomUUID } from 'node:crypto';

import { type ReceivedRequest, sendJson, startHttpsServer } from '../net/httpsTestServer';
import type { SelfSignedCert } from '../net/selfSignedCert';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How long ACS remembers a repeatable request. */
const REPEATABILITY_TRACKED_MS = 5 * 60_000;

export type AcsStatus = 'NotStarted' | 'Running' | 'Succeeded' | 'Failed' | 'Canceled';

export interface AcsServer {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Parsed bodies of accepted sends. */
  readonly sent: unknown[];
  /** Statuses answered to successive polls of the next operation; the last one repeats. */
  scriptPolls(statuses: readonly AcsStatus[]): void;
  failNextSend(status: number): void;
  close(): Promise<void>;
}

/**
 * The ACS Email REST shape the SDK speaks: `POST /emails:send` answers 202 with an
 * `operation-location` header and `{ id, status }`; `GET /emails/operations/{id}` answers
 * `{ id, status, error? }` until the status is terminal.
 */
export async function startAcsServer(
  cert: SelfSignedCert,
  now: () => number = () => Date.now(),
  /** Called with each accepted send's body (a world's inbox). */
  onSent?: (body: unknown) => void,
): Promise<AcsServer> {
  const requests: ReceivedRequest[] = [];
  const repeatable = new Map<string, { body: string; reply: Reply }>();
  const sent: unknown[] = [];
  const operations = new Map<string, AcsStatus[]>();
  let script: AcsStatus[] = ['Succeeded'];
  let sendFailure: number | undefined;
  let url = '';

  type Reply = readonly [status: number, body: unknown, headers?: Record<string, string>];
  const route = (req: ReceivedRequest): Reply => {
    const apiVersion = req.query.get('api-version');
    if (!apiVersion) return [400, { error: { code: 'MissingApiVersion', message: 'api-version' } }];
    if (!req.headers.authorization) return [401, { error: { code: 'Denied', message: 'no auth' } }];
    if (req.method === 'POST' && req.path === '/emails:send') {
      const repeat = repeatability(req);
      if (repeat !== undefined && 'refused' in repeat) return repeat.refused;
      const earlier = repeat === undefined ? undefined : repeatable.get(repeat.requestId);
      if (sendFailure !== undefined && earlier === undefined) {
        const status = sendFailure;
        sendFailure = undefined;
        const reply: Reply = [status, { error: { code: 'Simulated', message: `simulated HTTP ${status}` } }];
        // A repeat of a request refused with a 4xx gets that answer again; after a 5xx it runs again.
        if (repeat !== undefined && status < 500) repeatable.set(repeat.requestId, { body: req.body, reply });
        return reply;
      }
      if (earlier !== undefined) {
        if (earlier.body !== req.body)
          return [
            400,
            { error: { code: 'RepeatabilityMismatch', message: 'differs from the first request' } },
          ];
        return earlier.reply; // a repeat within the tracked time: the first result, nothing sent again
      }
      const body: unknown = JSON.parse(req.body);
      sent.push(body);
      onSent?.(body);
      const operationId = req.headers['operation-id'];
      const id = typeof operationId === 'string' ? operationId : randomUUID();
      operations.set(id, [...script]);
      const reply: Reply = [
        202,
        { id, status: 'Running' },
        { 'operation-location': `${url}/emails/operations/${id}?api-version=${apiVersion}` },
      ];
      if (repeat !== undefined) repeatable.set(repeat.requestId, { body: req.body, reply });
      return reply;
    }
    const id = /^\/emails\/operations\/([^/]+)$/.exec(req.path)?.[1];
    const queue = id === undefined ? undefined : operations.get(id);
    if (req.method === 'GET' && queue !== undefined) {
      const status = queue.length > 1 ? (queue.shift() ?? 'Running') : (queue[0] ?? 'Running');
      const error = { code: 'EmailDroppedAllRecipientsSuppressed', message: 'all recipients are suppressed' };
      return [200, { id, status, ...(status === 'Failed' ? { error } : {}) }];
    }
    return [404, { error: { code: 'NotFound', message: `${req.method} ${req.path}` } }];
  };

  /**
   * ACS "Repeatability of requests" (learn.microsoft.com/rest/api/communication/repeatable-requests):
   * a repeat that matches the first request within the tracked time gets the first answer (2xx or 4xx)
   * and sends nothing; a different body under the same id is a 400. Both headers or neither; the id a GUID, the first-sent time an
   * IMF-fixdate within the 5 minutes ACS tracks (older: 412).
   */
  const repeatability = (
    req: ReceivedRequest,
  ): { readonly requestId: string } | { readonly refused: Reply } | undefined => {
    const requestId = req.headers['repeatability-request-id'];
    const firstSent = req.headers['repeatability-first-sent'];
    if (typeof requestId !== 'string' && typeof firstSent !== 'string') return undefined;
    const bad = (message: string): { refused: Reply } => ({
      refused: [400, { error: { code: 'InvalidRepeatabilityHeaders', message } }],
    });
    if (typeof requestId !== 'string' || !GUID.test(requestId)) return bad('Repeatability-Request-Id');
    const at = typeof firstSent === 'string' ? Date.parse(firstSent) : NaN;
    if (Number.isNaN(at)) return bad('Repeatability-First-Sent');
    if (now() - at > REPEATABILITY_TRACKED_MS)
      return {
        refused: [412, { error: { code: 'PreconditionFailed', message: 'outside the tracked time' } }],
      };
    return { requestId };
  };

  const server = await startHttpsServer(cert, (req, res) => {
    requests.push(req);
    const [status, body, headers] = route(req);
    sendJson(res, status, body, headers);
  });
  url = server.url;

  return {
    url,
    requests,
    sent,
    scriptPolls: (statuses) => {
      script = [...statuses];
    },
    failNextSend: (status) => {
      sendFailure = status;
    },
    close: () => server.close(),
  };
}
