import { describe, expect, it } from 'vitest';

import { DemoArgsError, parseDemoArgs } from '../../demo/args';

const sinkOf = (argv: string[]) => {
  const parsed = parseDemoArgs(argv);
  if (parsed.kind !== 'run') throw new Error('expected run options');
  return parsed.options.sink;
};

describe('--sink', () => {
  it('runs on the Table sink unless told otherwise', () => {
    expect(sinkOf([])).toBe('table');
    expect(sinkOf(['--sink', 'http', '--speed', '0'])).toBe('http');
    expect(sinkOf(['--sink=table'])).toBe('table');
  });

  it('names the choices when the value is wrong or missing', () => {
    expect(() => parseDemoArgs(['--sink', 'queue'])).toThrow(
      new DemoArgsError("--sink expects one of table | http, got 'queue'"),
    );
    expect(() => parseDemoArgs(['--sink'])).toThrow(new DemoArgsError('--sink needs a value (see --help)'));
    expect(() => parseDemoArgs(['--sink', '--speed', '1'])).toThrow(/--sink needs a value/);
  });
});
