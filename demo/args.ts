import { type SinkKind, sinkKinds } from '../src/config/sinkSettings';

/** Command-line options of `npm run demo`, parsed without side effects (tested in test/demo). */
export interface DemoOptions {
  /** Follow the emailed link after this many simulated seconds; undefined = wait for a person. */
  readonly autoApproveSeconds: number | undefined;
  /** Simulated seconds per wall-clock second while nobody is awaited; 0 = as fast as the machine goes. */
  readonly speed: number;
  readonly partitions: number;
  readonly events: number;
  /** Events are published over this many simulated seconds. */
  readonly sendSeconds: number;
  /** The downstream goes offline at this second, for `outageSeconds`. */
  readonly outageStart: number;
  readonly outageSeconds: number;
  /** The breaker store: `auto` takes Redis when there is one (REDIS_URL or redis-server), else Table. */
  readonly store: BreakerStoreChoice;
  /** The downstream: the sample Table sink on Azurite, or the HTTP sink against a local HTTP API. */
  readonly sink: SinkKind;
  /** `outage` (approved in time) or `unattended` (nobody approves within the hub's retention). */
  readonly scenario: DemoScenario;
  /** How long the hub keeps events, in simulated seconds; undefined = the deployed hub's (infra/). */
  readonly retentionSeconds: number | undefined;
}

export const DEMO_SCENARIOS = ['outage', 'unattended'] as const;
export type DemoScenario = (typeof DEMO_SCENARIOS)[number];

export const BREAKER_STORE_CHOICES = ['auto', 'redis', 'table'] as const;
export type BreakerStoreChoice = (typeof BREAKER_STORE_CHOICES)[number];

export type ParsedArgs = { readonly kind: 'run'; readonly options: DemoOptions } | { readonly kind: 'help' };

export const DEFAULT_AUTO_APPROVE_SECONDS = 60;

export const defaultDemoOptions: DemoOptions = {
  autoApproveSeconds: undefined,
  speed: 5,
  partitions: 16,
  events: 3000,
  sendSeconds: 120,
  outageStart: 20,
  outageSeconds: 50,
  store: 'auto',
  sink: 'table',
  scenario: 'outage',
  retentionSeconds: undefined,
};

/**
 * `--scenario unattended`: a trip nobody approves for longer than the hub's retention, time compressed
 * (a retention of 10 simulated minutes, the downstream back after 20, the approval 25 minutes after the
 * email), as fast as the machine goes. Flags given on the command line still win.
 */
export const unattendedDemoOptions: Partial<DemoOptions> = {
  scenario: 'unattended',
  speed: 0,
  partitions: 4,
  events: 400,
  sendSeconds: 60,
  outageStart: 10,
  outageSeconds: 1_200,
  autoApproveSeconds: 1_500,
  retentionSeconds: 600,
};

export const USAGE = `Usage: npm run demo -- [options]

Runs Breakwater end to end on this machine (Azurite, Redis or Table, the real handlers around a model of
the Functions host): sensor events on an Event Hub, a downstream outage, the breaker trips, the trigger
is disabled, an approval email arrives; the approval page is served on localhost.

Options:
  --auto-approve [seconds]  follow the emailed link after this many simulated seconds
                            (default ${DEFAULT_AUTO_APPROVE_SECONDS}); without it the demo waits for you to open the link
  --speed <x>               simulated seconds per wall-clock second (default ${defaultDemoOptions.speed}; 0 = no pacing);
                            while waiting for your click the simulation runs in real time
  --partitions <n>          Event Hub partitions (default ${defaultDemoOptions.partitions})
  --events <n>              sensor events to publish (default ${defaultDemoOptions.events})
  --send-seconds <s>        publish them over this many simulated seconds (default ${defaultDemoOptions.sendSeconds})
  --outage-start <s>        second at which the downstream goes offline (default ${defaultDemoOptions.outageStart})
  --outage-seconds <s>      how long it stays offline (default ${defaultDemoOptions.outageSeconds})
  --store <redis|table>     the breaker store (default: Redis when REDIS_URL is set or redis-server is
                            on PATH, otherwise Table on the embedded Azurite)
  --sink table|http         the downstream: the home activity table on Azurite, or an HTTP API
                            (started in-process) behind the HTTP sink (default ${defaultDemoOptions.sink})
  --scenario <name>         outage (default: approved in time) or unattended: nobody approves for
                            longer than the hub's retention (${unattendedDemoOptions.retentionSeconds} simulated s), then a late approval
                            (${unattendedDemoOptions.autoApproveSeconds} s after the email); speed 0, ${unattendedDemoOptions.events} events on ${unattendedDemoOptions.partitions} partitions unless given
  --retention <s>           how long the hub keeps events, in simulated seconds (default: the
                            deployed hub's, eventHubRetentionDays in infra/)
  -h, --help                this text`;

/** A bad command line; the message says what was wrong and is printed as one line. */
export class DemoArgsError extends Error {
  override readonly name = 'DemoArgsError';
}

interface NumberRule {
  readonly key: Exclude<keyof DemoOptions, 'store' | 'sink' | 'scenario'>;
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
}

const rules: Readonly<Record<string, NumberRule>> = {
  '--auto-approve': { key: 'autoApproveSeconds', min: 0, max: 86_400, integer: true },
  '--speed': { key: 'speed', min: 0, max: 10_000, integer: false },
  '--partitions': { key: 'partitions', min: 1, max: 32, integer: true },
  '--events': { key: 'events', min: 1, max: 1_000_000, integer: true },
  '--send-seconds': { key: 'sendSeconds', min: 1, max: 86_400, integer: true },
  '--outage-start': { key: 'outageStart', min: 0, max: 86_400, integer: true },
  '--outage-seconds': { key: 'outageSeconds', min: 0, max: 86_400, integer: true },
  '--retention': { key: 'retentionSeconds', min: 60, max: 90 * 86_400, integer: true },
};

function parseNumber(flag: string, raw: string, rule: NumberRule): number {
  const kind = rule.integer ? 'a whole number' : 'a number';
  const value = /^\s*$/.test(raw) ? Number.NaN : Number(raw);
  if (!Number.isFinite(value)) throw new DemoArgsError(`${flag} expects ${kind}, got '${raw}'`);
  if (rule.integer && !Number.isInteger(value))
    throw new DemoArgsError(`${flag} expects ${kind}, got '${raw}'`);
  if (value < rule.min || value > rule.max)
    throw new DemoArgsError(`${flag} must be between ${rule.min} and ${rule.max}, got ${raw}`);
  return value;
}

/** Parses `process.argv.slice(2)`; throws DemoArgsError on an unknown flag, a missing or bad value. */
export function parseDemoArgs(argv: readonly string[]): ParsedArgs {
  const options: { -readonly [K in keyof DemoOptions]?: DemoOptions[K] } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h' || arg === '--help') return { kind: 'help' };
    const [flag = '', inline] = arg.startsWith('--') ? arg.split(/=(.*)/s, 2) : [arg];
    if (flag === '--scenario') {
      const raw = inline ?? argv[++i];
      const scenario = DEMO_SCENARIOS.find((c) => c === raw);
      if (!scenario)
        throw new DemoArgsError(
          `--scenario expects one of ${DEMO_SCENARIOS.join(' | ')}, got '${raw ?? ''}'`,
        );
      options.scenario = scenario;
      continue;
    }
    if (flag === '--store') {
      const raw = inline ?? argv[++i];
      const choice = BREAKER_STORE_CHOICES.find((c) => c !== 'auto' && c === raw);
      if (!choice) throw new DemoArgsError(`--store expects redis or table, got '${raw ?? ''}'`);
      options.store = choice;
      continue;
    }
    if (flag === '--sink') {
      let raw = inline;
      const next = argv[i + 1];
      if (raw === undefined && next !== undefined && !next.startsWith('--')) {
        raw = next;
        i++;
      }
      if (raw === undefined) throw new DemoArgsError('--sink needs a value (see --help)');
      const sink = sinkKinds.find((k) => k === raw);
      if (!sink) throw new DemoArgsError(`--sink expects one of ${sinkKinds.join(' | ')}, got '${raw}'`);
      options.sink = sink;
      continue;
    }
    const rule = rules[flag];
    if (!rule) {
      throw new DemoArgsError(
        arg.startsWith('-')
          ? `unknown option ${flag} (see --help)`
          : `unexpected argument '${arg}' (see --help)`,
      );
    }
    let raw = inline;
    if (raw === undefined) {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        raw = next;
        i++;
      }
    }
    if (raw === undefined) {
      if (flag !== '--auto-approve') throw new DemoArgsError(`${flag} needs a value (see --help)`);
      options.autoApproveSeconds = DEFAULT_AUTO_APPROVE_SECONDS;
      continue;
    }
    options[rule.key] = parseNumber(flag, raw, rule);
  }
  const merged: DemoOptions = {
    ...defaultDemoOptions,
    ...(options.scenario === 'unattended' ? unattendedDemoOptions : {}),
    ...options,
  };
  if (merged.outageStart >= merged.sendSeconds + 600)
    throw new DemoArgsError('--outage-start must fall within 600 s of the last event sent');
  return { kind: 'run', options: merged };
}
