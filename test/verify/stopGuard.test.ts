/**
 * The verify run's stop guard on a real process (test/verify/support/stopGuardChild.ts): SIGTERM (a CI
 * job cancelled, `timeout`, a container stopped) restores like Ctrl-C; a second signal while restoring
 * is said and ignored, never a second restore or an exit before it; a run that never reaches its
 * cleanup is restored by the guard itself, and the process still ends within its bound.
 */
import { describe, expect, it } from 'vitest';

import { runMarked } from '../support/processTree';

const CHILD = 'test/verify/support/stopGuardChild.ts';

describe('the verify run stop guard', { timeout: 30_000 }, () => {
  it('SIGTERM: the run is aborted, restores once and exits 130', async () => {
    const run = runMarked(CHILD, [], {
      MODE: 'cooperative',
      GRACE_MS: '10000',
      BOUND_MS: '20000',
    });
    await run.stdoutHas('ready');
    run.child.kill('SIGTERM');
    const out = await run.stdoutHas('stopped by');
    const { code } = await run.exited;
    expect(out).toContain('SIGTERM: stopping, restoring the app first');
    expect(out).toContain('stopped by SIGTERM');
    expect(out.match(/restored \(\d\)/g)).toEqual(['restored (1)']);
    expect(code).toBe(130);
  });

  it('a second Ctrl-C while restoring is said and ignored: one restore, then exit 130', async () => {
    const run = runMarked(CHILD, [], {
      MODE: 'cooperative',
      GRACE_MS: '10000',
      BOUND_MS: '20000',
      RELEASE: 'signal',
    });
    await run.stdoutHas('ready');
    run.child.kill('SIGINT');
    await run.stdoutHas('restoring');
    run.child.kill('SIGINT');
    await run.stdoutHas('already stopping');
    run.child.kill('SIGUSR2');
    const out = await run.stdoutHas('stopped by');
    const { code } = await run.exited;
    expect(out).toContain('SIGINT: already stopping; the app is being restored first (at most 20 s)');
    expect(out.match(/stopping, restoring the app first/g)).toHaveLength(1);
    expect(out.match(/restored \(\d\)/g)).toEqual(['restored (1)']);
    expect(out).toContain('stopped by SIGINT');
    expect(code).toBe(130);
  });

  it('a run that never reaches its cleanup: the guard restores after the grace, and exits at the bound', async () => {
    const run = runMarked(CHILD, [], { MODE: 'stuck', GRACE_MS: '1000', BOUND_MS: '3000' });
    await run.stdoutHas('ready');
    run.child.kill('SIGHUP');
    const { code, stderr } = await run.exited;
    const out = await run.stdoutHas('restored');
    expect(stderr).toContain(
      'verify: the run did not reach its cleanup 1 s after SIGHUP: restoring the app from the stop guard',
    );
    expect(out.match(/restored \(\d\)/g)).toEqual(['restored (1)']);
    expect(stderr).toContain('verify: still not done 3 s after SIGHUP: exiting');
    expect(code).toBe(130);
  });
});
