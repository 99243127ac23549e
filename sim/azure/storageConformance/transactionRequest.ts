/** One operation of an entity group transaction as the Table service receives it. */
export interface TransactionOperation {
  readonly method: string;
  /** Keys addressed in the URL (`…(PartitionKey='a',RowKey='b')`), for update, merge and delete. */
  readonly urlKeys: { readonly partitionKey?: string; readonly rowKey?: string };
  /** The JSON entity of an insert or update, or undefined (a delete). */
  readonly entity: Record<string, unknown> | undefined;
}

/**
 * The operations of a `$batch` body (multipart/mixed, one change set of application/http parts), or a
 * reason it cannot be read.
 */
export function parseTransaction(body: string): TransactionOperation[] | string {
  const boundary = /boundary=(changeset_[^\s;]+)/.exec(body)?.[1];
  if (boundary === undefined) return 'no change set';
  const parts = body.split(`--${boundary}`).slice(1, -1);
  const operations: TransactionOperation[] = [];
  for (const part of parts) {
    const request = /^(POST|PUT|PATCH|MERGE|DELETE|GET) (\S+) HTTP\/1\.1\r?$/m.exec(part);
    if (!request) return 'a change set part without a request line';
    const [, method = '', url = ''] = request;
    const afterRequest = part.slice(request.index + request[0].length);
    const bodyStart = afterRequest.search(/\r?\n\r?\n/);
    const text = bodyStart < 0 ? '' : afterRequest.slice(bodyStart).trim();
    let entity: Record<string, unknown> | undefined;
    if (text !== '') {
      try {
        entity = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return 'a change set part whose body is not JSON';
      }
    }
    operations.push({ method, urlKeys: keysInUrl(url), entity });
  }
  return operations;
}

/** PartitionKey and RowKey of an entity URL (`Table(PartitionKey='a',RowKey='b')`), decoded. */
export function keysInUrl(url: string): { partitionKey?: string; rowKey?: string } {
  const path = url.split('?')[0] ?? '';
  const match = /\(PartitionKey='((?:[^']|'')*)',RowKey='((?:[^']|'')*)'\)$/.exec(safeDecode(path));
  if (!match) return {};
  const unquote = (s: string | undefined) => (s ?? '').replace(/''/g, "'");
  return { partitionKey: unquote(match[1]), rowKey: unquote(match[2]) };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
