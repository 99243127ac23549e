import { randomUUID } from 'node:crypto';

import type { SelfSignedCert } from '../net/selfSignedCert';
import { type ReceivedRequest, sendJson, startHttpsServer } from '../net/httpsTestServer';

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
export async function startAcsServer(cert: SelfSignedCert): Promise<AcsServer> {
  const requests: ReceivedRequest[] = [];
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
      if (sendFailure !== undefined) {
        const status = sendFailure;
        sendFailure = undefined;
        return [status, { error: { code: 'Simulated', message: `simulated HTTP ${status}` } }];
      }
      sent.push(JSON.parse(req.body));
      const id = randomUUID();
      operations.set(id, [...script]);
      return [
        202,
        { id, status: 'Running' },
        { 'operation-location': `${url}/emails/operations/${id}?api-version=${apiVersion}` },
      ];
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
