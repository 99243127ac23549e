import { expect, inject, it } from 'vitest';

import { defaultDemoOptions } from '../../demo/args';
import { runDemo } from '../../demo/main';

// Its own file: a demo run is one process in real use, and the app's function registrations are
// per process, so a second demo run inside the same test process would not see its own handlers.
it('runs on the Table breaker store when there is no Redis, and its header says so', async () => {
  const lines: string[] = [];
  const result = await runDemo(
    {
      ...defaultDemoOptions,
      speed: 0,
      partitions: 4,
      events: 160,
      sendSeconds: 20,
      outageStart: 5,
      outageSeconds: 20,
      autoApproveSeconds: 10,
    },
    {
      storageConnectionString: inject('storageConnectionString'),
      storeNote: 'Table on the embedded Azurite',
    },
    {
      print: (line) => lines.push(line),
      sleep: () => Promise.reject(new Error('the test must not sleep')),
      wallNow: () => 0,
    },
  );
  const output = lines.join('\n');
  expect(result.exitCode, output).toBe(0);
  expect(result.summary).toMatchObject({ sent: 160, held: 0, lost: 0, settled: true });
  expect(output).toContain('Breaker (Table store): trips above');
  expect(output).toContain('Breaker store: Table on the embedded Azurite.');
  expect(output).toContain('!! TRIPPED');
}, 60_000);
