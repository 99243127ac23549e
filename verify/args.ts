/** Options of `npm run verify`; every one is in USAGE. */
export interface VerifyOptions {
  /** Always named: no default, so a bare `npm run verify` can never reach the selected (production) env. */
  readonly target: 'azure' | 'local';
  /** azd environment name; required with `--target azure` (never taken from azd's selection). */
  readonly env: string | undefined;
  /** The changes listed before the run are confirmed (needed when stdin is not a terminal). */
  readonly yes: boolean;
  readonly events: number | undefined;
  readonly poisonEvery: number;
  readonly homes: number;
  readonly faultMinutes: number;
  /** Bound of each wait, seconds of target time (default: 300 local, 600 azure). */
  readonly stageTimeoutSeconds: number | undefined;
  readonly approver: string;
  /** Bound of signing in to Azure, seconds. */
  readonly credentialTimeoutSeconds: number;
}

export class VerifyArgsError extends Error {
  readonly code = 'VERIFY_ARGS';
  override readonly name = 'VerifyArgsError';
}

export const USAGE = `npm run verify -- [options]

Proves the guarantees on a deployment: publishes readings with a run id, takes the sample sink down
with the fault switch, watches the breaker trip, the trigger get disabled and the notice go out, keeps
publishing while OPEN, brings the sink back, approves through the public approval page, waits for the
backlog to drain and the breaker to close, then accounts for every event. Exit 0 only with lost 0 and
every step in time; the app is left as found (fault off, breaker CLOSED, trigger enabled), also on Ctrl-C.

Options:
  --target azure|local      required. local: the simulator on this machine, changes nothing outside it;
                            azure: the deployment of the azd environment named by --env, which must have
                            opted in (app setting BREAKWATER_VERIFY_ALLOWED=true: sandboxes only)
  --env NAME                with --target azure, required: the azd environment (.azure/NAME/.env)
  --yes                     with --target azure: go on without asking after listing what the run will
                            change (required when stdin is not a terminal; on a terminal it asks)
  --events N                readings to publish, 40 to 100000 (default 400 local, 1000 azure)
  --poison-every K          every K-th reading is not a reading (dead-lettered as poison); 0 = none (default 50)
  --homes H                 partition keys the readings spread over, 1 to 1000 (default 16)
  --fault-minutes M         how long the fault switch may keep the sink down, 1 to 60 (default 10);
                            the app switches it off by itself when the time is up
  --stage-timeout S         seconds each step may take before the run fails (default 300 local, 600 azure)
  --approver NAME           the name the approval is recorded under (default "Verify run")
  --credential-timeout S    seconds to wait for an Azure sign-in before failing (default 20)
  --help                    this text

See docs/demo.md: what it changes, how long it takes, what it costs, how to clean up.`;

const integer = (flag: string, raw: string | undefined, min: number, max: number): number => {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new VerifyArgsError(
      `${flag} expects a whole number from ${min} to ${max}${raw === undefined ? '' : `, got "${raw}"`}`,
    );
  return Number(raw);
};

export function parseVerifyArgs(
  argv: readonly string[],
): { kind: 'help' } | { kind: 'run'; options: VerifyOptions } {
  let o: Omit<VerifyOptions, 'target'> & { target: VerifyOptions['target'] | undefined } = {
    target: undefined,
    env: undefined,
    yes: false,
    events: undefined,
    poisonEvery: 50,
    homes: 16,
    faultMinutes: 10,
    stageTimeoutSeconds: undefined,
    approver: 'Verify run',
    credentialTimeoutSeconds: 20,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] ?? '';
    if (flag === '--help' || flag === '-h') return { kind: 'help' };
    if (flag === '--yes') {
      o = { ...o, yes: true };
      continue;
    }
    const value = argv[++i];
    switch (flag) {
      case '--target':
        if (value !== 'azure' && value !== 'local')
          throw new VerifyArgsError('--target expects azure or local');
        o = { ...o, target: value };
        break;
      case '--env':
        if (value === undefined || !/^[\w-]{1,64}$/.test(value))
          throw new VerifyArgsError('--env expects an azd environment name (letters, digits, - and _)');
        o = { ...o, env: value };
        break;
      case '--events':
        o = { ...o, events: integer(flag, value, 40, 100_000) };
        break;
      case '--poison-every':
        o = { ...o, poisonEvery: integer(flag, value, 0, 100_000) };
        break;
      case '--homes':
        o = { ...o, homes: integer(flag, value, 1, 1_000) };
        break;
      case '--fault-minutes':
        o = { ...o, faultMinutes: integer(flag, value, 1, 60) };
        break;
      case '--stage-timeout':
        o = { ...o, stageTimeoutSeconds: integer(flag, value, 10, 7_200) };
        break;
      case '--credential-timeout':
        o = { ...o, credentialTimeoutSeconds: integer(flag, value, 1, 300) };
        break;
      case '--approver':
        if (value === undefined || value.trim() === '' || value.length > 100)
          throw new VerifyArgsError('--approver expects a name of 1 to 100 characters');
        o = { ...o, approver: value };
        break;
      default:
        throw new VerifyArgsError(`unknown option ${flag} (see --help)`);
    }
  }
  const { target } = o;
  if (target === undefined)
    throw new VerifyArgsError(
      '--target is required: --target local (the simulator on this machine) or --target azure --env <name> (a sandbox deployment)',
    );
  if (target === 'azure' && o.env === undefined)
    throw new VerifyArgsError(
      '--target azure needs --env <name>: the azd environment of a sandbox (never the selected one by default)',
    );
  return { kind: 'run', options: { ...o, target } };
}
