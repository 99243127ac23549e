import { describe, expect, it } from 'vitest';

import { spawnService, stopService } from '../../sim/services/childProcesses';

describe('a service process that dies under a run', () => {
  it('says which service, how it ended and the last words on its stderr', async () => {
    const lines: string[] = [];
    const child = spawnService(
      process.execPath,
      [
        '-e',
        "process.stderr.write('listen EADDRINUSE: address already in use 127.0.0.1:10000\\n'); process.exit(3)",
      ],
      { stdio: 'ignore' },
      { name: 'Azurite', onUnexpectedExit: (line) => lines.push(line) },
    );
    await new Promise((resolve) => child.once('close', resolve));
    expect(lines).toEqual([
      'Azurite exited while still in use (exit code 3): listen EADDRINUSE: address already in use 127.0.0.1:10000',
    ]);
  });

  it('is quiet when the run stops it', async () => {
    const lines: string[] = [];
    const child = spawnService(
      process.execPath,
      ['-e', 'setInterval(() => {}, 1000)'],
      { stdio: 'ignore' },
      { name: 'redis-server', onUnexpectedExit: (line) => lines.push(line) },
    );
    await stopService(child);
    expect(lines).toEqual([]);
  });
});
