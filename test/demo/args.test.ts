import { describe, expect, it } from 'vitest';

import {
  DEFAULT_AUTO_APPROVE_SECONDS,
  defaultDemoOptions,
  DemoArgsError,
  parseDemoArgs,
} from '../../demo/args';

const options = (argv: string[]) => {
  const parsed = parseDemoArgs(argv);
  if (parsed.kind !== 'run') throw new Error('expected run options');
  return parsed.options;
};

const failure = (argv: string[]) => {
  try {
    parseDemoArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(DemoArgsError);
    return (error as Error).message;
  }
  throw new Error('expected a DemoArgsError');
};

describe('parseDemoArgs', () => {
  it('--store chooses the breaker store; auto by default; anything else is refused', () => {
    expect(defaultDemoOptions.store).toBe('auto');
    expect(options(['--store', 'table']).store).toBe('table');
    expect(options(['--store=redis']).store).toBe('redis');
    expect(failure(['--store', 'auto'])).toBe("--store expects redis or table, got 'auto'");
    expect(failure(['--store'])).toBe("--store expects redis or table, got ''");
  });

  it('--scenario unattended: a 10-minute retention, the approval 25 minutes after the email, unpaced; flags still win', () => {
    expect(options(['--scenario', 'unattended'])).toMatchObject({
      scenario: 'unattended',
      retentionSeconds: 600,
      autoApproveSeconds: 1_500,
      speed: 0,
    });
    expect(options(['--scenario=unattended', '--retention', '120', '--speed', '5'])).toMatchObject({
      retentionSeconds: 120,
      speed: 5,
    });
    expect(options(['--speed', '5', '--scenario', 'unattended']).speed).toBe(5);
    expect(options([]).retentionSeconds).toBeUndefined();
    expect(failure(['--scenario', 'nobody'])).toBe(
      "--scenario expects one of outage | unattended, got 'nobody'",
    );
    expect(failure(['--retention', '10'])).toBe('--retention must be between 60 and 7776000, got 10');
  });

  it('defaults: 16 partitions, waits for a person, paced', () => {
    expect(options([])).toEqual(defaultDemoOptions);
    expect(defaultDemoOptions.partitions).toBe(16);
    expect(defaultDemoOptions.autoApproveSeconds).toBeUndefined();
  });

  it('reads values separated by a space or =', () => {
    expect(
      options(['--auto-approve', '60', '--speed=2.5', '--events', '800', '--partitions=4']),
    ).toMatchObject({
      autoApproveSeconds: 60,
      speed: 2.5,
      events: 800,
      partitions: 4,
    });
    expect(options(['--outage-start', '3', '--outage-seconds', '0', '--send-seconds', '9'])).toMatchObject({
      outageStart: 3,
      outageSeconds: 0,
      sendSeconds: 9,
    });
  });

  it('--auto-approve without a number uses the default delay', () => {
    expect(options(['--auto-approve']).autoApproveSeconds).toBe(DEFAULT_AUTO_APPROVE_SECONDS);
    expect(options(['--auto-approve', '--speed', '0'])).toMatchObject({
      autoApproveSeconds: DEFAULT_AUTO_APPROVE_SECONDS,
      speed: 0,
    });
  });

  it('help', () => {
    expect(parseDemoArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseDemoArgs(['--speed', '2', '-h'])).toEqual({ kind: 'help' });
  });

  it('refuses unknown flags and stray arguments', () => {
    expect(failure(['--autoapprove', '5'])).toBe('unknown option --autoapprove (see --help)');
    expect(failure(['-x'])).toBe('unknown option -x (see --help)');
    expect(failure(['fast'])).toBe("unexpected argument 'fast' (see --help)");
  });

  it('refuses non-numbers, fractions where whole numbers are needed, and out-of-range values', () => {
    expect(failure(['--auto-approve', 'soon'])).toBe("--auto-approve expects a whole number, got 'soon'");
    expect(failure(['--speed', 'fast'])).toBe("--speed expects a number, got 'fast'");
    expect(failure(['--speed='])).toBe("--speed expects a number, got ''");
    expect(failure(['--events', '1.5'])).toBe("--events expects a whole number, got '1.5'");
    expect(failure(['--partitions', '0'])).toBe('--partitions must be between 1 and 32, got 0');
    expect(failure(['--speed', '-5'])).toBe('--speed must be between 0 and 10000, got -5');
  });

  it('refuses a flag without its value', () => {
    expect(failure(['--speed'])).toBe('--speed needs a value (see --help)');
    expect(failure(['--events', '--speed', '1'])).toBe('--events needs a value (see --help)');
  });
});
