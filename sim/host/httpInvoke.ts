import { bindingOfType, invokeRpc, registration } from './fakeFunctionsCore';

export interface HttpCall {
  readonly method: string;
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

export interface HttpResult {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly logs: readonly { level: string; message: string }[];
}

/** Binding data for non-trigger inputs, by binding type (e.g. `durableClient`). */
export type ExtraInputs = Partial<Record<string, unknown>>;

/**
 * Invokes a registered HTTP function the way the worker does: an RPC `http` typed datum in, the
 * library's conversion to HttpRequest, the handler, and the library's conversion of the response out.
 */
export async function invokeHttp(name: string, call: HttpCall, extra: ExtraInputs = {}): Promise<HttpResult> {
  const inputData = Object.entries(registration(name).metadata.bindings)
    .filter(([, b]) => b.direction === 'in' && !b.type.endsWith('Trigger') && extra[b.type] !== undefined)
    .map(([bindingName, b]) => ({ name: bindingName, data: { string: JSON.stringify(extra[b.type]) } }));
  const body =
    call.body === undefined
      ? undefined
      : typeof call.body === 'string'
        ? { string: call.body }
        : { bytes: new Uint8Array(call.body) };
  const { response, logs } = await invokeRpc(name, {
    trigger: {
      http: {
        method: call.method,
        url: call.url,
        headers: call.headers ?? {},
        ...(body === undefined ? {} : { body }),
      },
    },
    inputData,
  });
  const http = (response.returnValue as { http?: RpcHttpOut } | undefined)?.http;
  if (!http) throw new Error(`function ${name} returned no HTTP response`);
  return {
    status: Number(http.statusCode ?? 200),
    headers: http.headers ?? {},
    body: http.body?.bytes ? Buffer.from(http.body.bytes).toString('utf8') : (http.body?.string ?? ''),
    logs,
  };
}

interface RpcHttpOut {
  statusCode?: string;
  headers?: Record<string, string>;
  body?: { bytes?: Uint8Array; string?: string };
}

/** The httpTrigger binding of a function: route, methods and auth level as registered. */
export function httpTriggerOf(name: string) {
  const b: Record<string, unknown> = bindingOfType(name, 'httpTrigger');
  return {
    route: typeof b.route === 'string' ? b.route : name,
    methods: Array.isArray(b.methods) ? (b.methods as string[]).map((m) => m.toUpperCase()) : [],
    authLevel: typeof b.authLevel === 'string' ? b.authLevel : 'function',
  };
}
