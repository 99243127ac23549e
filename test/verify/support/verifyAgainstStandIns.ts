/**
 * `npm run verify` as a child process against local stand-ins of Azure (azureStandIns.ts): the same
 * command (verify/main.ts) with the stand-ins' "cloud" (host suffixes under .localhost, their ports) and
 * a fixed token instead of the public cloud and DefaultAzureCredential. Names under .localhost resolve
 * to 127.0.0.1 here; the stand-ins' certificate is trusted through NODE_EXTRA_CA_CERTS.
 */
import dns from 'node:dns';

import { staticTokenCredential } from '../../../sim/azure/armServer';
import type { AzureCloud } from '../../../verify/azure/azureCloud';
import { runAndExit } from '../../../verify/main';

type Lookup = typeof dns.lookup;
const systemLookup: Lookup = dns.lookup.bind(dns);
dns.lookup = ((hostname: string, options: unknown, callback?: unknown) => {
  const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
  const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
  if (!hostname.endsWith('.localhost')) {
    (systemLookup as (...args: unknown[]) => void)(hostname, options, callback);
    return;
  }
  if (all) process.nextTick(cb, null, [{ address: '127.0.0.1', family: 4 }]);
  else process.nextTick(cb, null, '127.0.0.1', 4);
}) as Lookup;

// A stray error thrown from a callback, as an SDK's socket handler could: what an uncaught error is.
process.on('SIGUSR2', () => {
  setImmediate(() => {
    throw new Error('a stray error in a callback (test)');
  });
});

const cloud = JSON.parse(process.env.VERIFY_STAND_IN_CLOUD ?? '') as AzureCloud;
runAndExit(process.argv.slice(2), { cloud, credential: () => Promise.resolve(staticTokenCredential) });
