import { describe, expect, it } from 'vitest';

import { parseVerifyArgs, USAGE } from '../../verify/args';
import { parseDotenv } from '../../verify/azure/azdEnvironment';

const options = (argv: string[]) => {
  const parsed = parseVerifyArgs(argv);
  if (parsed.kind !== 'run') throw new Error('expected a run');
  return parsed.options;
};

describe('npm run verify options', () => {
  it('--help documents every option the parser takes, and only those', () => {
    expect(parseVerifyArgs(['--help'])).toEqual({ kind: 'help' });
    const documented = [...USAGE.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
    const samples: Record<string, string[]> = {
      '--target': ['local'],
      '--env': ['sandbox'],
      '--events': ['400'],
      '--poison-every': ['50'],
      '--homes': ['16'],
      '--fault-minutes': ['10'],
      '--stage-timeout': ['300'],
      '--approver': ['Verify run'],
      '--credential-timeout': ['20'],
      '--yes': [],
      '--help': [],
    };
    expect(documented.sort()).toEqual(Object.keys(samples).sort());
    for (const [flag, value] of Object.entries(samples))
      expect(() => parseVerifyArgs(['--target', 'local', flag, ...value])).not.toThrow();
  });

  it.each([
    [['--target', 'prod'], '--target expects azure or local'],
    [['--events', '10'], '--events expects a whole number from 40 to 100000, got "10"'],
    [['--events'], '--events expects a whole number from 40 to 100000'],
    [['--fault-minutes', '61'], '--fault-minutes expects a whole number from 1 to 60, got "61"'],
    [['--env', '../x'], '--env expects an azd environment name (letters, digits, - and _)'],
    [['--approver', ''], '--approver expects a name of 1 to 100 characters'],
    [['--force'], 'unknown option --force (see --help)'],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => parseVerifyArgs(['--target', 'local', ...argv])).toThrow(message);
  });

  it('defaults: the sizes per target are chosen later, the rest here', () => {
    expect(options(['--target', 'local'])).toMatchObject({
      target: 'local',
      yes: false,
      events: undefined,
      poisonEvery: 50,
      faultMinutes: 10,
    });
  });
});

describe('which target: always named, never the selected azd environment', () => {
  it('refuses a run without --target', () => {
    expect(() => parseVerifyArgs([])).toThrow(
      '--target is required: --target local (the simulator on this machine) or --target azure --env <name> (a sandbox deployment)',
    );
    expect(() => parseVerifyArgs(['--env', 'sandbox', '--yes'])).toThrow('--target is required');
  });

  it('refuses --target azure without --env', () => {
    expect(() => parseVerifyArgs(['--target', 'azure', '--yes'])).toThrow(
      '--target azure needs --env <name>: the azd environment of a sandbox (never the selected one by default)',
    );
  });

  it('takes --target azure --env NAME, and --yes', () => {
    expect(options(['--target', 'azure', '--env', 'sandbox'])).toMatchObject({
      target: 'azure',
      env: 'sandbox',
      yes: false,
    });
    expect(options(['--yes', '--target', 'azure', '--env', 'sandbox']).yes).toBe(true);
  });
});

describe("azd's .env file", () => {
  it('reads quoted, single-quoted and bare values, skipping comments', () => {
    const values = parseDotenv(
      '# azd\nAZURE_ENV_NAME="sandbox"\nSERVICE_API_URI="https://func-x.azurewebsites.net"\nA=\'b c\'\nB=plain\nC="say \\"hi\\""\n',
    );
    expect(Object.fromEntries(values)).toEqual({
      AZURE_ENV_NAME: 'sandbox',
      SERVICE_API_URI: 'https://func-x.azurewebsites.net',
      A: 'b c',
      B: 'plain',
      C: 'say "hi"',
    });
  });
});
