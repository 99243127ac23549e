import { afterAll, describe, expect, it } from 'vitest';

import { APP_HOST, FUNCTION_KEY, spawnVerify, type StandIns, startStandIns } from './support/azureStandIns';

const ARGS = ['--target', 'azure', '--env', 'sandbox', '--events', '40'];
const open: StandIns[] = [];
// Each test has stand-ins of its own (the tests run at once): closed when all are done.
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
});
const standIns = async (settings?: Record<string, string>) => {
  const s = await startStandIns(settings);
  open.push(s);
  return s;
};
const puts = (s: StandIns) => s.arm.requests.filter((r) => r.method === 'PUT');
const keyedRequests = (s: StandIns) =>
  s.appRequests.filter((r) => r.headers['x-functions-key'] === FUNCTION_KEY);

// Each test spawns `npm run verify`; on a loaded machine its start alone can take seconds.
const SPAWNED_MS = 60_000;

describe(
  'npm run verify -- --target azure against stand-ins: what it refuses before changing anything',
  { timeout: SPAWNED_MS },
  () => {
    it.concurrent(
      'an azd file whose SERVICE_API_URI is not the app ARM reports: refuses naming both, sends the key nowhere',
      async () => {
        const s = await standIns();
        const elsewhere = s.appUrl.replace(APP_HOST, 'func-other.azurewebsites.localhost');
        const r = await spawnVerify(s, s.project({ SERVICE_API_URI: elsewhere }), [...ARGS, '--yes']).exited;
        expect(r.code).toBe(1);
        expect(r.stderr.trim()).toBe(
          `verify: azd environment "sandbox": SERVICE_API_URI is "${elsewhere}" but ARM reports function app func-api-abc123 at ${s.appUrl} (its defaultHostName): the file does not describe this app (copied from another environment?). Nothing was sent to either; run \`azd env refresh -e sandbox\``,
        );
        expect(s.appRequests).toEqual([]);
        expect(s.arm.requests.map((q) => q.path.split('/').slice(-2).join('/'))).toEqual([
          'sites/func-api-abc123',
        ]);
      },
    );

    it.concurrent(
      'an app that has not opted in (no BREAKWATER_VERIFY_ALLOWED=true): refuses, says how to opt a sandbox in',
      async () => {
        const s = await standIns({ BREAKWATER_VERIFY_ALLOWED: 'false' });
        const r = await spawnVerify(s, s.project(), [...ARGS, '--yes']).exited;
        expect(r.code).toBe(1);
        expect(r.stderr.trim()).toBe(
          'verify: function app func-api-abc123 has not opted in to verify runs (app setting BREAKWATER_VERIFY_ALLOWED is "false", not true): run verify on a sandbox, after `azd env set BREAKWATER_VERIFY_ALLOWED true -e sandbox && azd provision -e sandbox` there (docs/demo.md); nothing was changed',
        );
        expect(puts(s)).toEqual([]);
        expect(s.appRequests).toEqual([]);
      },
    );

    it.concurrent(
      'without a terminal and without --yes: lists what it would change, then refuses',
      async () => {
        const s = await standIns();
        const r = await spawnVerify(s, s.project(), ARGS).exited;
        expect(r.code).toBe(1);
        expect(r.stdout).toContain(
          'This run will change (40 readings, the sink down for at most 10 min, approved as "Verify run"):',
        );
        expect(r.stdout).toContain(
          '  - app setting FAULT_SWITCH_ENABLED=true on func-api-abc123 for the run (the app restarts), put back to unset at the end;',
        );
        expect(r.stderr.trim()).toBe(
          'verify: stdin is not a terminal to confirm on: pass --yes to make the changes listed above; nothing was changed',
        );
        expect(puts(s)).toEqual([]);
        expect(keyedRequests(s)).toEqual([]);
      },
    );
  },
);

/** The run waits for the app to restart with the fault switch on (its fault endpoint answers 404 meanwhile). */
const WAITING = '-> waiting: fault switch answers';

describe(
  'npm run verify -- --target azure against stand-ins: every way it stops puts FAULT_SWITCH_ENABLED back',
  { timeout: SPAWNED_MS },
  () => {
    it.concurrent('SIGHUP (the terminal closed): restored, said, exit 130', async () => {
      const s = await standIns({ FAULT_SWITCH_ENABLED: 'false' });
      const run = spawnVerify(s, s.project(), [...ARGS, '--yes']);
      await run.seen(WAITING);
      expect(s.arm.settings().FAULT_SWITCH_ENABLED).toBe('true');
      run.child.kill('SIGHUP');
      const r = await run.exited;
      expect(s.arm.settings().FAULT_SWITCH_ENABLED).toBe('false');
      expect(r.stdout).toContain('SIGHUP: stopping, restoring the app first');
      expect(r.stdout).toContain('FAULT_SWITCH_ENABLED: put back to "false" on func-api-abc123');
      expect(r.stdout).toContain('read back: breaker CLOSED, trigger enabled, fault off');
      expect(r.code).toBe(130);
    });

    it.concurrent('its output pipe closed (`| head`): restored, said on stderr', async () => {
      const s = await standIns();
      // The switch's write is held until the pipe is closed, so the run's next line meets a closed pipe.
      const write = s.arm.holdNext('update');
      const run = spawnVerify(s, s.project(), [...ARGS, '--yes']);
      await run.seen('approval signing key readable');
      run.child.stdout.destroy();
      write.release();
      const r = await run.exited;
      expect(s.arm.settings()).not.toHaveProperty('FAULT_SWITCH_ENABLED');
      expect(puts(s)).toHaveLength(2);
      expect(r.stderr).toContain('stdout closed (EPIPE): stopping, restoring the app first');
      expect(r.stderr).toContain('FAULT_SWITCH_ENABLED: put back to unset (off) on func-api-abc123');
      expect(r.code).toBe(130);
    });

    it.concurrent(
      'Ctrl-C with its output pipe closed (EPIPE inside the SIGINT handler): restored, said on stderr',
      async () => {
        const s = await standIns();
        const run = spawnVerify(s, s.project(), [...ARGS, '--yes']);
        await run.seen(WAITING);
        run.child.stdout.destroy();
        run.child.kill('SIGINT');
        const r = await run.exited;
        expect(s.arm.settings()).not.toHaveProperty('FAULT_SWITCH_ENABLED');
        expect(r.stderr).toContain('FAULT_SWITCH_ENABLED: put back to unset (off) on func-api-abc123');
        expect(r.stderr).toContain('read back: breaker CLOSED, trigger enabled, fault off');
        expect(r.code).toBe(130);
      },
    );

    it.concurrent('an uncaught error: restored once, said, exit 1', async () => {
      const s = await standIns();
      const run = spawnVerify(s, s.project(), [...ARGS, '--yes']);
      await run.seen(WAITING);
      run.child.kill('SIGUSR2');
      const r = await run.exited;
      expect(s.arm.settings()).not.toHaveProperty('FAULT_SWITCH_ENABLED');
      expect(r.stderr).toContain('verify: uncaught error: Error: a stray error in a callback (test)');
      expect(r.stdout.match(/FAULT_SWITCH_ENABLED: put back to unset \(off\)/g)).toHaveLength(1);
      expect(puts(s)).toHaveLength(2);
      expect(r.code).toBe(1);
    });
  },
);
