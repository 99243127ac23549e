/**
 * `npm run verify`: proves the guarantees on a sandbox deployment (`--target azure --env NAME`) or on
 * the simulator (`--target local`). See USAGE in args.ts and docs/demo.md.
 */
import { AZURE_PUBLIC_CLOUD } from './azure/azureCloud';
import { runAndExit } from './main';

runAndExit(process.argv.slice(2), {
  cloud: AZURE_PUBLIC_CLOUD,
  // Loaded only for --target azure (it is a large package).
  credential: async () => new (await import('@azure/identity')).DefaultAzureCredential(),
});
