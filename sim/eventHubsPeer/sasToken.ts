import { createHmac, timingSafeEqual } from 'node:crypto';

/** A shared access policy of the namespace, as in a connection string. */
export interface SasKey {
  readonly name: string;
  readonly key: string;
}

export type TokenCheck =
  | { readonly ok: true; readonly resource: string; readonly expiresAt: number }
  | { readonly ok: false; readonly reason: string };

/**
 * Verifies a token `SharedAccessSignature sr=<uri>&sig=<sig>&se=<expiry s>&skn=<key name>` the way the
 * service does: the HMAC-SHA256 of "<encoded uri>\n<expiry>" under the named key, and the expiry.
 */
export function verifySasToken(token: string, keys: readonly SasKey[], nowMs: number): TokenCheck {
  const prefix = 'SharedAccessSignature ';
  if (!token.startsWith(prefix)) return { ok: false, reason: 'not a SharedAccessSignature token' };
  const fields = new Map<string, string>();
  for (const part of token.slice(prefix.length).split('&')) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq), part.slice(eq + 1));
  }
  const [sr, sig, se, skn] = ['sr', 'sig', 'se', 'skn'].map((k) => fields.get(k));
  if (sr === undefined || sig === undefined || se === undefined || skn === undefined)
    return { ok: false, reason: 'token lacks sr, sig, se or skn' };
  const key = keys.find((k) => k.name === decodeURIComponent(skn));
  if (key === undefined) return { ok: false, reason: `unknown key name ${decodeURIComponent(skn)}` };
  const expected = createHmac('sha256', key.key).update(`${sr}\n${se}`).digest();
  const given = Buffer.from(decodeURIComponent(sig), 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'signature does not match' };
  const expiresAt = Number(se) * 1000;
  if (!Number.isFinite(expiresAt) || expiresAt <= nowMs) return { ok: false, reason: 'token expired' };
  return { ok: true, resource: decodeURIComponent(sr), expiresAt };
}

/** True when a claim for `resource` (a URI such as sb://host:port/hub) covers the node `address`. */
export function claimCovers(resource: string, address: string): boolean {
  const path = URL.canParse(resource) ? new URL(resource).pathname : resource;
  const claimed = path.replace(/^\/+|\/+$/g, '').toLowerCase();
  const wanted = address.replace(/^\/+/, '').toLowerCase();
  return claimed === '' || wanted === claimed || wanted.startsWith(`${claimed}/`);
}
