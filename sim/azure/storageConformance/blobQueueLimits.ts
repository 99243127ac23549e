import type { IncomingHttpHeaders } from 'node:http';

import type { Refusal } from './serviceErrors';
import { storageLimits } from './storageLimits';

/**
 * A Blob request's name and metadata against the limits: the blob name (after the account and the
 * container in a path-style URL) at most 1,024 characters, the `x-ms-meta-*` names and values at most
 * 8 KiB in all. Only the request line and headers are read; the body streams through.
 */
export function checkBlobRequest(path: string, headers: IncomingHttpHeaders): Refusal | undefined {
  const [, , , ...nameParts] = decode(path.split('?')[0] ?? '').split('/');
  const name = nameParts.join('/');
  if (name.length > storageLimits.blobNameChars)
    return {
      status: 400,
      code: 'OutOfRangeInput',
      message: `The specified resource name length is not within the permissible limits. (blob name of ${name.length} characters; at most ${storageLimits.blobNameChars})`,
    };
  let metadata = 0;
  for (const [header, value] of Object.entries(headers)) {
    if (!header.startsWith('x-ms-meta-')) continue;
    const values = Array.isArray(value) ? value : [value ?? ''];
    for (const v of values)
      metadata += Buffer.byteLength(header.slice('x-ms-meta-'.length)) + Buffer.byteLength(v);
  }
  if (metadata > storageLimits.metadataBytes)
    return {
      status: 400,
      code: 'MetadataTooLarge',
      message: `The size of the specified metadata exceeds the maximum size permitted. (${metadata} bytes; at most ${storageLimits.metadataBytes})`,
    };
  return undefined;
}

/** A Put Message or Update Message body: the message text (as sent) at most 64 KiB. */
export function checkQueueMessage(body: Buffer): Refusal | undefined {
  const text = /<MessageText>([\s\S]*)<\/MessageText>/.exec(body.toString('utf8'))?.[1];
  if (text === undefined) return undefined;
  const bytes = Buffer.byteLength(unescapeXml(text));
  if (bytes <= storageLimits.queueMessageBytes) return undefined;
  return {
    status: 400,
    code: 'MessageTooLarge',
    message: `The message exceeds the maximum allowed size. (${bytes} bytes; at most ${storageLimits.queueMessageBytes})`,
  };
}

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (whole, entity: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    const lower = entity.toLowerCase();
    if (named[lower] !== undefined) return named[lower];
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
  });
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
