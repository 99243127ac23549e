/**
 * `npm run verify`: proves the guarantees on a deployment (`--target azure`) or on the simulator
 * (`--target local`). See USAGE in args.ts and docs/verify.md.
 */
import { parseVerifyArgs, USAGE, VerifyArgsError, type VerifyOptions } from './args';
import { chooseTarget } from './chooseTarget';

const print = (line: string) => {
  process.stdout.write(`${line}\n`);
};
const fail = (line: string, code: number) => {
  process.stderr.write(`verify: ${line}\n`);
  return code;
};

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseVerifyArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof VerifyArgsError) return fail(error.message, 2);
    throw error;
  }
  if (parsed.kind === 'help') {
    print(USAGE);
    return 0;
  }
  const { options } = parsed;
  // Ctrl-C or SIGTERM: the run stops waiting, restores the app, reports, exits 130. A second one exits now.
  const controller = new AbortController();
  for (const name of ['SIGINT', 'SIGTERM'] as const)
    process.on(name, () => {
      if (controller.signal.aborted) process.exit(130);
      print(`\n${name}: stopping, restoring the app first (again to quit at once)`);
      controller.abort();
    });
  const started = Date.now();
  const deps = { print, signal: controller.signal };
  const target = chooseTarget(options, process.cwd(), process.env);
  let code: number;
  if (target === 'local') {
    const { runLocalVerify } = await import('./local/runLocal');
    code = (await runLocalVerify(localSettings(options), deps)).exitCode;
  } else {
    const { runAzureVerify, isAzureSetupError } = await import('./azure/runAzure');
    try {
      code = (await runAzureVerify(options, process.cwd(), process.env, deps)).exitCode;
    } catch (error) {
      if (isAzureSetupError(error)) return fail(error.message, 1);
      throw error;
    }
  }
  print(`Wall time ${((Date.now() - started) / 1000).toFixed(1)} s. Exit code ${code}.`);
  return code;
}

function localSettings(o: VerifyOptions) {
  return {
    events: o.events ?? 400,
    poisonEvery: o.poisonEvery,
    homes: o.homes,
    faultMinutes: o.faultMinutes,
    stageTimeoutMs: (o.stageTimeoutSeconds ?? 300) * 1000,
    approver: o.approver,
  };
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `verify: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
