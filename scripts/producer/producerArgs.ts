import { parseArgs } from 'node:util';

/** Where the producer sends: a connection string (emulator, SAS) or a namespace reached with Entra ID. */
export type ProducerTarget =
  | {
      readonly kind: 'connectionString';
      readonly connectionString: string;
      readonly hubName: string | undefined;
    }
  | { readonly kind: 'identity'; readonly fullyQualifiedNamespace: string; readonly hubName: string };

export interface ProducerOptions {
  readonly count: number;
  /** Events per second; 0 sends as fast as the hub accepts. */
  readonly rate: number;
  readonly homes: number;
  /** Fraction of events, 0 to 1, sent as non-JSON or schema-invalid bodies. */
  readonly poison: number;
  readonly seed: number;
  readonly maxBatchBytes: number;
  readonly target: ProducerTarget;
}

export type ParsedProducerArgs = { readonly help: true } | ({ readonly help: false } & ProducerOptions);

/** Bad command-line input: the message says which option and what a valid value looks like. */
export class ProducerArgsError extends Error {
  override readonly name = 'ProducerArgsError';
}

export const producerUsage = `Sends sample home-security sensor readings to an Event Hub (partition key = homeId).

Usage: npm run produce -- [options]

  --count <n>            events to send (default 100)
  --rate <n>             events per second, 0 = as fast as possible (default 50)
  --homes <n>            distinct homes, i.e. partition keys (default 20)
  --poison <fraction>    0..1 of the events sent as non-JSON or schema-invalid bodies (default 0)
  --seed <n>             seed of the generator: the same seed sends the same readings (default 1)
  --max-batch-bytes <n>  upper bound of one send (default 262144)
  --connection <string>  Event Hubs connection string (default: env EventHubConnection)
  --namespace <host>     use Entra ID against this namespace instead (default: env
                         EventHubConnection__fullyQualifiedNamespace or EVENTHUB_FULLY_QUALIFIED_NAMESPACE)
  --hub <name>           Event Hub name (default: env EVENTHUB_NAME, or EntityPath of the connection string)
  --help                 this text`;

type Env = Readonly<Record<string, string | undefined>>;

/** Parses the producer's command line; throws ProducerArgsError with one clear line per problem. */
export function parseProducerArgs(argv: readonly string[], env: Env): ParsedProducerArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        count: { type: 'string' },
        rate: { type: 'string' },
        homes: { type: 'string' },
        poison: { type: 'string' },
        seed: { type: 'string' },
        'max-batch-bytes': { type: 'string' },
        connection: { type: 'string' },
        namespace: { type: 'string' },
        hub: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new ProducerArgsError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return { help: true };

  const text = (name: string) => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  const problems: string[] = [];
  const count = wholeNumber('--count', text('count'), 100, { min: 1, max: 10_000_000 }, problems);
  const rate = wholeNumber('--rate', text('rate'), 50, { min: 0, max: 1_000_000 }, problems);
  const homes = wholeNumber('--homes', text('homes'), 20, { min: 1, max: 1_000_000 }, problems);
  const seed = wholeNumber('--seed', text('seed'), 1, { min: 0, max: 2 ** 32 - 1 }, problems);
  const maxBatchBytes = wholeNumber(
    '--max-batch-bytes',
    text('max-batch-bytes'),
    262_144,
    { min: 1_024, max: 1_048_576 },
    problems,
  );
  const poison = fraction('--poison', text('poison'), problems);
  const target = readTarget(text('connection'), text('namespace'), text('hub'), env, problems);

  if (problems.length > 0 || target === undefined) throw new ProducerArgsError(problems.join('\n'));
  return { help: false, count, rate, homes, poison, seed, maxBatchBytes, target };
}

function wholeNumber(
  option: string,
  raw: string | undefined,
  fallback: number,
  range: { min: number; max: number },
  problems: string[],
): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    problems.push(`${option} expects a whole number from ${range.min} to ${range.max} (got "${raw}")`);
    return fallback;
  }
  return value;
}

function fraction(option: string, raw: string | undefined, problems: string[]): number {
  if (raw === undefined) return 0;
  const value = /^(\d+(\.\d*)?|\.\d+)$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!(value >= 0 && value <= 1)) {
    problems.push(`${option} expects a fraction from 0 to 1, e.g. 0.05 (got "${raw}")`);
    return 0;
  }
  return value;
}

function readTarget(
  connectionOption: string | undefined,
  namespaceOption: string | undefined,
  hubOption: string | undefined,
  env: Env,
  problems: string[],
): ProducerTarget | undefined {
  const present = (value: string | undefined) =>
    value !== undefined && value.trim() !== '' ? value.trim() : undefined;
  const hubName = present(hubOption) ?? present(env.EVENTHUB_NAME);
  if (connectionOption !== undefined && namespaceOption !== undefined) {
    problems.push('give either --connection or --namespace, not both');
    return undefined;
  }
  if (namespaceOption === undefined) {
    const connectionString = present(connectionOption) ?? present(env.EventHubConnection);
    if (connectionString !== undefined) {
      if (!/Endpoint=sb:\/\//i.test(connectionString)) {
        problems.push('--connection expects an Event Hubs connection string starting "Endpoint=sb://..."');
        return undefined;
      }
      if (hubName === undefined && !/EntityPath=/i.test(connectionString)) {
        problems.push(
          'no Event Hub name: pass --hub or set EVENTHUB_NAME (or EntityPath in the connection string)',
        );
        return undefined;
      }
      return { kind: 'connectionString', connectionString, hubName };
    }
  }
  const namespace =
    present(namespaceOption) ??
    present(env.EventHubConnection__fullyQualifiedNamespace) ??
    present(env.EVENTHUB_FULLY_QUALIFIED_NAMESPACE);
  if (namespace === undefined) {
    problems.push(
      'no Event Hubs connection: pass --connection (or set EventHubConnection), or --namespace for Entra ID',
    );
    return undefined;
  }
  if (!/^[A-Za-z0-9.-]+$/.test(namespace)) {
    problems.push(`--namespace expects a host name such as "ns.servicebus.windows.net" (got "${namespace}")`);
    return undefined;
  }
  if (hubName === undefined) {
    problems.push('no Event Hub name: pass --hub or set EVENTHUB_NAME');
    return undefined;
  }
  return { kind: 'identity', fullyQualifiedNamespace: namespace, hubName };
}
