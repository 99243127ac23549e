import type { HttpRequest, HttpResponseInit } from '@azure/functions';
import type { z } from 'zod';

/** JSON with the same no-store policy as the pages: operator data is live and not for caches. */
export function json(status: number, body: unknown): HttpResponseInit {
  return { status, jsonBody: body, headers: { 'Cache-Control': 'no-store' } };
}

/** A 400 that says which field is wrong and why, never echoing the submitted values. */
export function badRequest(message: string, issues: readonly z.core.$ZodIssue[] = []): HttpResponseInit {
  return json(400, {
    error: message,
    issues: issues.map((i) => ({ path: i.path.join('.') || '(body)', message: i.message })),
  });
}

const MAX_BODY_BYTES = 16 * 1024;

export type BodyResult<T> = { ok: true; value: T } | { ok: false; response: HttpResponseInit };

/** Reads and validates a JSON body; an empty body counts as `{}` so all-optional bodies may be omitted. */
export async function readJsonBody<T>(request: HttpRequest, schema: z.ZodType<T>): Promise<BodyResult<T>> {
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) return { ok: false, response: badRequest('body too large') };
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, response: badRequest('body is not valid JSON') };
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { ok: false, response: badRequest('invalid body', parsed.error.issues) };
  return { ok: true, value: parsed.data };
}
