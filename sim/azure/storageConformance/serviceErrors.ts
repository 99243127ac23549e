import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** A refusal as the service words it: HTTP status, the `x-ms-error-code` and the message. */
export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

const reasons: Record<number, string> = { 400: 'Bad Request', 413: 'Request Entity Too Large' };

/** The service's message with the request id and time lines it appends to every error. */
function detail(message: string, requestId: string): string {
  return `${message}\nRequestId:${requestId}\nTime:${new Date().toISOString()}`;
}

const tableJson = (refusal: Refusal, requestId: string) =>
  JSON.stringify({
    'odata.error': {
      code: refusal.code,
      message: { lang: 'en-US', value: detail(refusal.message, requestId) },
    },
  });

const TABLE_CONTENT_TYPE = 'application/json;odata=minimalmetadata;streaming=true;charset=utf-8';

/** Table: `{"odata.error":{"code":…,"message":{"lang":"en-US","value":…}}}`. */
export function sendTableError(res: ServerResponse, refusal: Refusal): void {
  const requestId = randomUUID();
  res.writeHead(refusal.status, {
    'content-type': TABLE_CONTENT_TYPE,
    'x-ms-error-code': refusal.code,
    'x-ms-request-id': requestId,
    'x-ms-version': '2019-02-02',
  });
  res.end(tableJson(refusal, requestId));
}

/**
 * An operation of an entity group transaction refused: the service answers 202 with one change-set
 * response holding the failed operation's status and error, its message prefixed with the operation's
 * index ("2:The …"), and applies nothing.
 */
export function sendTransactionError(res: ServerResponse, refusal: Refusal, index: number): void {
  const requestId = randomUUID();
  const batch = `batchresponse_${randomUUID()}`;
  const changeset = `changesetresponse_${randomUUID()}`;
  const body = [
    `--${batch}`,
    `Content-Type: multipart/mixed; boundary=${changeset}`,
    '',
    `--${changeset}`,
    'Content-Type: application/http',
    'Content-Transfer-Encoding: binary',
    '',
    `HTTP/1.1 ${refusal.status} ${reasons[refusal.status] ?? 'Bad Request'}`,
    'X-Content-Type-Options: nosniff',
    'DataServiceVersion: 3.0;',
    `Content-Type: ${TABLE_CONTENT_TYPE}`,
    '',
    tableJson({ ...refusal, message: `${index}:${refusal.message}` }, requestId),
    `--${changeset}--`,
    `--${batch}--`,
    '',
  ].join('\r\n');
  res.writeHead(202, {
    'content-type': `multipart/mixed; boundary=${batch}`,
    'x-ms-request-id': requestId,
    'x-ms-version': '2019-02-02',
  });
  res.end(body);
}

/** Blob and Queue: `<Error><Code>…</Code><Message>…</Message></Error>`. */
export function sendXmlError(res: ServerResponse, refusal: Refusal): void {
  const requestId = randomUUID();
  res.writeHead(refusal.status, {
    'content-type': 'application/xml',
    'x-ms-error-code': refusal.code,
    'x-ms-request-id': requestId,
  });
  const message = detail(refusal.message, requestId).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  res.end(
    `<?xml version="1.0" encoding="utf-8"?><Error><Code>${refusal.code}</Code><Message>${message}</Message></Error>`,
  );
}
