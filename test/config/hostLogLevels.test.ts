import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { describe, expect, it } from 'vitest';

import { ConfigError } from '../../src/config/errors';
import { hostLogLevels, readHostLogLevels } from '../../src/config/hostLogLevels';

const levels = (logLevel: Record<string, unknown>) => hostLogLevels({ logging: { logLevel } });

describe("host.json log levels, read as .NET's logger filter reads them", () => {
  it('the longest matching category prefix wins, case-insensitive', () => {
    const l = levels({
      default: 'Error',
      Function: 'Warning',
      'Function.BreakerWatchdog.User': 'Information',
      'function.breakerwatchdog': 'Debug',
    });
    expect(l.levelFor('Function.BreakerWatchdog.User')).toBe('Information');
    expect(l.levelFor('Function.BreakerWatchdog')).toBe('Debug');
    expect(l.levelFor('Function.ProcessSensorEvents.User')).toBe('Warning');
    expect(l.levelFor('Host.Function.Console')).toBe('Error');
  });

  it('without a default rule, Information; without logging at all, the same', () => {
    expect(levels({ Function: 'Warning' }).levelFor('Host.Results')).toBe('Information');
    expect(hostLogLevels({}).levelFor('Function.X.User')).toBe('Information');
  });

  it('keeps a record at the level and above, none below; None keeps nothing', () => {
    const l = levels({ default: 'Warning', 'Function.Quiet': 'None' });
    expect(l.keeps('Function.X.User', SeverityNumber.WARN)).toBe(true);
    expect(l.keeps('Function.X.User', SeverityNumber.ERROR)).toBe(true);
    expect(l.keeps('Function.X.User', SeverityNumber.INFO)).toBe(false);
    expect(l.keeps('Function.Quiet.User', SeverityNumber.FATAL)).toBe(false);
  });

  it('refuses a level that is not one of the names, naming each key', () => {
    const bad = () => levels({ Function: 'Verbose', default: 3, 'Host.Results': 'error' });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/logging\.logLevel\.Function: must be one of Trace, Debug, Information/);
    expect(bad).toThrow(/logging\.logLevel\.default: must be one/);
    expect(bad).toThrow(/2 problems/);
    expect(() => hostLogLevels({ logging: { logLevel: 'Warning' } })).toThrow(/must be an object/);
  });

  it("reads the app's host.json: the trigger's own logs at Warning, the watchdog's at Information", () => {
    const l = readHostLogLevels(resolve(__dirname, '../..'));
    expect(l.levelFor('Function.ProcessSensorEvents.User')).toBe('Warning');
    expect(l.levelFor('Function.BreakerWatchdog.User')).toBe('Information');
  });

  it('an app setting AzureFunctionsJobHost__logging__logLevel__<category> overrides host.json, as for the host', () => {
    const l = readHostLogLevels(resolve(__dirname, '../..'), {
      'AzureFunctionsJobHost__logging__logLevel__function.processsensorevents.user': 'Information',
      AzureFunctionsJobHost__logging__logLevel__default: 'Error',
      UNRELATED: 'x',
    });
    expect(l.levelFor('Function.ProcessSensorEvents.User')).toBe('Information');
    expect(l.levelFor('Function.BreakerWatchdog.User')).toBe('Information');
    expect(l.levelFor('Worker.Other')).toBe('Error');
    expect(() =>
      readHostLogLevels(mkdtempSync(join(tmpdir(), 'host-json-')), {
        AzureFunctionsJobHost__logging__logLevel__Function: 'Loud',
      }),
    ).toThrow(/logLevel\.Function: must be one of/);
  });

  it('no host.json: the defaults; a host.json that is not JSON: a ConfigError', () => {
    const dir = mkdtempSync(join(tmpdir(), 'host-json-'));
    expect(readHostLogLevels(dir).levelFor('Function.X.User')).toBe('Information');
    writeFileSync(join(dir, 'host.json'), '{ "logging": ');
    expect(() => readHostLogLevels(dir)).toThrow(/host\.json: is not JSON/);
  });
});
