import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { runMarked, untilNoneLeft } from '../support/processTree';

const HOLD_SERVICES = 'test/support/scripts/holdTestServices.ts';
const DEMO = 'demo/run.ts';

/** A redis-server that answers --version but dies at start: setup fails after Azurite is up. */
function brokenRedisOnPath(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'bw-broken-redis-'));
  const file = path.join(dir, 'redis-server');
  writeFileSync(file, '#!/bin/sh\n[ "$1" = "--version" ] && echo "Redis server v=7.0.0" && exit 0\nexit 1\n');
  chmodSync(file, 0o755);
  return `${dir}:${process.env.PATH ?? ''}`;
}

describe('no service process outlives the run that started it', () => {
  it('test setup failing halfway (Redis dies at start) stops the Azurite it had started', async () => {
    const run = runMarked(HOLD_SERVICES, [], { PATH: brokenRedisOnPath(), REDIS_URL: '' });
    const { code, stderr } = await run.exited;
    expect(code, stderr).toBe(1);
    expect(stderr).toContain('setup failed: process for port');
    expect(await untilNoneLeft(run.marker)).toEqual([]);
  });

  for (const [how, interrupt, expected] of [
    ['SIGTERM', (r: ReturnType<typeof runMarked>) => r.child.kill('SIGTERM'), 143],
    ['a closed stdout pipe', (r: ReturnType<typeof runMarked>) => r.child.stdout?.destroy(), 141],
  ] as const) {
    it(`the test services stop on ${how}`, async () => {
      const run = runMarked(HOLD_SERVICES, [], { REDIS_URL: '' });
      await run.stdoutHas('ready');
      interrupt(run);
      expect((await run.exited).code).toBe(expected);
      expect(await untilNoneLeft(run.marker)).toEqual([]);
    });
  }

  for (const [how, interrupt] of [
    ['Ctrl-C (SIGINT)', (r: ReturnType<typeof runMarked>) => r.child.kill('SIGINT')],
    [
      'a closed stdout pipe (npm run demo | head)',
      (r: ReturnType<typeof runMarked>) => r.child.stdout?.destroy(),
    ],
  ] as const) {
    it(`the demo stops Azurite and redis-server on ${how}`, async () => {
      const run = runMarked(DEMO, ['--auto-approve', '60', '--store', 'redis'], { REDIS_URL: '' });
      await run.stdoutHas('Breakwater demo:');
      interrupt(run);
      const { code } = await run.exited;
      expect(code).not.toBe(0);
      expect(await untilNoneLeft(run.marker)).toEqual([]);
    });
  }
});
