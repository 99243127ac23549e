import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SelfSignedCert {
  readonly key: string;
  readonly cert: string;
}

/**
 * A throwaway certificate for 127.0.0.1 and localhost (and `dnsNames`, e.g. `*.vault.localhost` for
 * stand-ins reached by a service's own host name), made with openssl at test start. The key only
 * lives in memory once read: the temporary directory is removed at once and nothing is committed.
 */
export function makeSelfSignedCert(dnsNames: readonly string[] = []): SelfSignedCert {
  const dir = mkdtempSync(path.join(tmpdir(), 'bw-cert-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    const result = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        `subjectAltName=${['IP:127.0.0.1', 'DNS:localhost', ...dnsNames.map((n) => `DNS:${n}`)].join(',')}`,
      ],
      { encoding: 'utf8' },
    );
    if (result.error)
      throw new Error(`openssl is needed for the HTTPS test servers: ${result.error.message}`);
    if (result.status !== 0) throw new Error(`openssl failed: ${result.stderr}`);
    return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
