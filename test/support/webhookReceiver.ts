import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { verifyWebhookSignature, WebhookHeader } from '../../src/notify/webhook/webhookSignature';

/** One request as the receiver saw it, with its own verdict on the signature. */
export interface ReceivedWebhook {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  readonly json: Record<string, unknown>;
  readonly signatureValid: boolean;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedWebhook[];
  /** Status the next requests get instead of 204 (e.g. 503, 401); undefined restores 204. */
  answer(status: number | undefined): void;
  close(): Promise<void>;
}

/**
 * A webhook receiver on a local port that verifies signatures the way docs/notify-and-control.md tells
 * receivers to, against its own copy of the key and its own clock.
 */
export async function startWebhookReceiver(options: {
  readonly keys: readonly string[];
  readonly nowSeconds: () => number;
}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let status: number | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => {
        const value = req.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      received.push({
        headers: req.headers,
        body,
        json: JSON.parse(body) as Record<string, unknown>,
        signatureValid: verifyWebhookSignature({
          body,
          timestamp: header(WebhookHeader.timestamp),
          signature: header(WebhookHeader.signature),
          keys: options.keys,
          nowSeconds: options.nowSeconds(),
        }),
      });
      res.writeHead(status ?? 204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/breakwater`,
    received,
    answer(next) {
      status = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
