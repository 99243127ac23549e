import { describe, expect, it } from 'vitest';

import { parseProducerArgs, ProducerArgsError } from '../../scripts/producer/producerArgs';

const emulator =
  'Endpoint=sb://localhost;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true;';
const localEnv = { EventHubConnection: emulator, EVENTHUB_NAME: 'sensor-readings' };

function problemsOf(argv: string[], env: Record<string, string> = localEnv): string[] {
  try {
    parseProducerArgs(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ProducerArgsError);
    return (error as Error).message.split('\n');
  }
  throw new Error('expected the arguments to be rejected');
}

describe('parseProducerArgs', () => {
  it('takes the connection and hub from the environment, with defaults for the rest', () => {
    expect(parseProducerArgs([], localEnv)).toEqual({
      help: false,
      count: 100,
      rate: 50,
      homes: 20,
      poison: 0,
      seed: 1,
      maxBatchBytes: 262_144,
      target: { kind: 'connectionString', connectionString: emulator, hubName: 'sensor-readings' },
    });
  });

  it('reads every option given on the command line', () => {
    const parsed = parseProducerArgs(
      [
        '--count',
        '500',
        '--rate=0',
        '--homes',
        '7',
        '--poison',
        '0.25',
        '--seed',
        '42',
        '--max-batch-bytes',
        '4096',
      ],
      localEnv,
    );
    expect(parsed).toMatchObject({
      count: 500,
      rate: 0,
      homes: 7,
      poison: 0.25,
      seed: 42,
      maxBatchBytes: 4096,
    });
  });

  it('prefers --connection and --hub over the environment', () => {
    const other = 'Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=abc';
    const parsed = parseProducerArgs(['--connection', other, '--hub', 'other-hub'], localEnv);
    expect(parsed).toMatchObject({
      target: { kind: 'connectionString', connectionString: other, hubName: 'other-hub' },
    });
  });

  it('accepts a connection string that names its hub with EntityPath', () => {
    const withPath = `${emulator}EntityPath=sensor-readings`;
    expect(parseProducerArgs(['--connection', withPath], {})).toMatchObject({
      target: { kind: 'connectionString', hubName: undefined },
    });
  });

  it('uses Entra ID with --namespace or the azd output EVENTHUB_FULLY_QUALIFIED_NAMESPACE', () => {
    expect(
      parseProducerArgs(['--namespace', 'evhns-abc.servicebus.windows.net', '--hub', 'h'], {}),
    ).toMatchObject({
      target: { kind: 'identity', fullyQualifiedNamespace: 'evhns-abc.servicebus.windows.net', hubName: 'h' },
    });
    const azdEnv = {
      EVENTHUB_FULLY_QUALIFIED_NAMESPACE: 'evhns-x.servicebus.windows.net',
      EVENTHUB_NAME: 'hub',
    };
    expect(parseProducerArgs([], azdEnv)).toMatchObject({
      target: { kind: 'identity', fullyQualifiedNamespace: 'evhns-x.servicebus.windows.net', hubName: 'hub' },
    });
  });

  it('returns help for --help without asking for a connection', () => {
    expect(parseProducerArgs(['--help'], {})).toEqual({ help: true });
  });

  it('names each bad number with its valid range, all at once', () => {
    expect(problemsOf(['--count', 'ten', '--rate=-5', '--homes', '0', '--max-batch-bytes', '10'])).toEqual([
      '--count expects a whole number from 1 to 10000000 (got "ten")',
      '--rate expects a whole number from 0 to 1000000 (got "-5")',
      '--homes expects a whole number from 1 to 1000000 (got "0")',
      '--max-batch-bytes expects a whole number from 1024 to 1048576 (got "10")',
    ]);
  });

  it.each(['1.5', '-0.1', 'half', '', '5%'])('rejects --poison %j with the expected form', (value) => {
    expect(problemsOf([`--poison=${value}`])).toEqual([
      `--poison expects a fraction from 0 to 1, e.g. 0.05 (got "${value}")`,
    ]);
  });

  it('rejects unknown options and stray arguments', () => {
    expect(problemsOf(['--bogus'])[0]).toMatch(/Unknown option '--bogus'/);
    expect(problemsOf(['extra'])[0]).toMatch(/Unexpected argument 'extra'/);
  });

  it('rejects an option that needs a value when none is given', () => {
    expect(problemsOf(['--count'])[0]).toMatch(/--count/);
  });

  it('points a negative value given with a space to the --option=value form', () => {
    expect(problemsOf(['--rate', '-5']).join(' ')).toMatch(/--rate=-XYZ/);
  });

  it('says how to connect when no connection is configured', () => {
    expect(problemsOf([], {})).toEqual([
      'no Event Hubs connection: pass --connection (or set EventHubConnection), or --namespace for Entra ID',
    ]);
  });

  it('asks for the hub when neither --hub, EVENTHUB_NAME nor EntityPath names it', () => {
    expect(problemsOf(['--connection', emulator], {})).toEqual([
      'no Event Hub name: pass --hub or set EVENTHUB_NAME (or EntityPath in the connection string)',
    ]);
    expect(problemsOf(['--namespace', 'ns.servicebus.windows.net'], {})).toEqual([
      'no Event Hub name: pass --hub or set EVENTHUB_NAME',
    ]);
  });

  it('rejects malformed connections and both kinds at once', () => {
    expect(problemsOf(['--connection', 'redis://localhost'])).toEqual([
      '--connection expects an Event Hubs connection string starting "Endpoint=sb://..."',
    ]);
    expect(problemsOf(['--namespace', 'https://ns/', '--hub', 'h'], {})).toEqual([
      '--namespace expects a host name such as "ns.servicebus.windows.net" (got "https://ns/")',
    ]);
    expect(problemsOf(['--connection', emulator, '--namespace', 'ns.servicebus.windows.net'])).toEqual([
      'give either --connection or --namespace, not both',
    ]);
  });
});
