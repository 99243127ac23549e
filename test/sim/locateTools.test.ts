import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { CHROMIUM_MISSING, locateChromium } from '../../sim/services/chromium';
import { locateRedis, REDIS_MISSING } from '../../sim/services/redis';
import { isToolMissingError } from '../../sim/services/toolMissingError';

/** A PATH with nothing on it, and installing switched off: what a laptop without Redis looks like. */
const bare = { PATH: mkdtempSync(path.join(tmpdir(), 'bw-empty-path-')), BREAKWATER_NO_INSTALL: '1' };

function fakeExecutable(name: string, script: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'bw-fake-bin-'));
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
  return dir;
}

describe('locateRedis', () => {
  it('takes REDIS_URL first, without looking for redis-server, and hides a password in what it prints', () => {
    const source = locateRedis({ ...bare, REDIS_URL: 'redis://user:secret@10.0.0.5:6380' });
    expect(source).toMatchObject({ kind: 'url', url: 'redis://user:secret@10.0.0.5:6380' });
    expect(source.description).toBe('REDIS_URL (redis://***@10.0.0.5:6380)');
  });

  it('then redis-server on PATH, naming its version', () => {
    const dir = fakeExecutable('redis-server', 'echo "Redis server v=7.9.1 sha=0 malloc=libc bits=64"');
    expect(locateRedis({ ...bare, PATH: dir })).toEqual({
      kind: 'server',
      description: 'redis-server 7.9.1 on PATH',
    });
  });

  it('stops with one line saying how to get Redis on Debian/Ubuntu and macOS when it cannot install', () => {
    let caught: unknown;
    try {
      locateRedis(bare);
    } catch (error) {
      caught = error;
    }
    expect(isToolMissingError(caught)).toBe(true);
    expect((caught as Error).message).toBe(REDIS_MISSING);
    expect(REDIS_MISSING).not.toContain('\n');
    expect(REDIS_MISSING).toMatch(/apt-get install -y redis-server.*brew install redis/);
  });
});

describe('locateChromium', () => {
  const nowhere = path.join(bare.PATH, 'chromium');

  it('takes CHROMIUM_PATH first, and says so when it is not an executable', () => {
    const dir = fakeExecutable('chrome', 'exit 0');
    expect(locateChromium({ ...bare, CHROMIUM_PATH: path.join(dir, 'chrome') }, nowhere)).toMatchObject({
      kind: 'found',
      path: path.join(dir, 'chrome'),
    });
    expect(locateChromium({ ...bare, CHROMIUM_PATH: '/no/such/chrome' }, nowhere)).toEqual({
      kind: 'missing',
      reason: 'CHROMIUM_PATH=/no/such/chrome is not an executable file',
    });
  });

  it("then Debian's path, else a reason naming how to get it (the browser tests fail with it)", () => {
    const dir = fakeExecutable('chromium', 'exit 0');
    expect(locateChromium(bare, path.join(dir, 'chromium'))).toMatchObject({ kind: 'found' });
    expect(locateChromium(bare, nowhere)).toEqual({ kind: 'missing', reason: CHROMIUM_MISSING });
  });
});
