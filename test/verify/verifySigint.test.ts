import { describe, expect, it } from 'vitest';

import { runMarked, untilNoneLeft } from '../support/processTree';

describe('npm run verify -- --target local, interrupted with Ctrl-C (SIGINT)', () => {
  it('while the approval is awaited: restores the app first (reset = approval, then the break-glass close), exits 130', async () => {
    const run = runMarked('verify/run.ts', ['--target', 'local', '--events', '80'], { AZURE_ENV_NAME: '' });
    await run.stdoutHas('OK notification:');
    run.child.kill('SIGINT');
    const out = await run.stdoutHas('Exit code 130.');
    const { code } = await run.exited;
    expect(out).toContain('SIGINT: stopping, restoring the app first');
    expect(out).toContain('!! interrupted');
    expect(out).toMatch(/breaker was OPEN: reset through the operator API \(HTTP 202\)/);
    expect(out).toMatch(/breaker was HALF_OPEN: reset through the operator API \(HTTP 200\)/);
    expect(out).toContain('read back: breaker CLOSED, trigger enabled, fault off');
    expect(out).toContain('lost 0; failed: interrupted');
    expect(code).toBe(130);
    // Its services ran in their own process group (a terminal's Ctrl-C reaches the run only) and still end with it.
    expect(await untilNoneLeft(run.marker)).toEqual([]);
  }, 120_000);
});
