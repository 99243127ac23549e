import { spawnSync } from 'node:child_process';

/**
 * Installing a missing tool with apt-get is allowed only where it cannot surprise anyone: as root on a
 * machine that has apt-get (this project's machines and CI), and unless BREAKWATER_NO_INSTALL=1.
 */
export function canInstallWithApt(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.BREAKWATER_NO_INSTALL === '1') return false;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return false;
  return !spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).error;
}

let listsUpdated = false;

/** `apt-get update` (once per process) then `apt-get install -y <packages>`; throws with apt's own words. */
export function aptInstall(packages: readonly string[]): void {
  // Another apt run (a second test run, the demo) may hold the lock: wait for it rather than fail.
  const lock = ['-o', 'DPkg::Lock::Timeout=300'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args: string[]) => {
    const result = spawnSync('apt-get', [...lock, ...args], { env, encoding: 'utf8' });
    if (result.error) throw result.error;
    if (result.status !== 0) {
      const tail = result.stderr.trim().split('\n').slice(-3).join(' / ');
      throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status}): ${tail}`);
    }
  };
  if (!listsUpdated) {
    run(['update', '-qq']);
    listsUpdated = true;
  }
  run(['install', '-y', '-qq', ...packages]);
}
