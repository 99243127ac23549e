import { accessSync, constants } from 'node:fs';

import { aptInstall, canInstallWithApt } from './aptInstall';

/** Where the browser tests' Chromium comes from, or why there is none (the tests then fail with it). */
export type ChromiumSource =
  | { readonly kind: 'found'; readonly path: string; readonly description: string }
  | { readonly kind: 'missing'; readonly reason: string };

const DEBIAN_PATH = '/usr/bin/chromium';

export const CHROMIUM_MISSING =
  'Chromium is needed for the browser tests: set CHROMIUM_PATH to a Chromium or Chrome binary, or install it ' +
  '(Debian/Ubuntu: sudo apt-get install -y chromium; macOS: brew install --cask chromium, then ' +
  'CHROMIUM_PATH=/Applications/Chromium.app/Contents/MacOS/Chromium)';

const isExecutable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** CHROMIUM_PATH; else /usr/bin/chromium; else Debian's chromium installed with apt-get where allowed. */
export function locateChromium(
  env: NodeJS.ProcessEnv = process.env,
  debianPath: string = DEBIAN_PATH,
): ChromiumSource {
  const chosen = env.CHROMIUM_PATH;
  if (chosen) {
    return isExecutable(chosen)
      ? { kind: 'found', path: chosen, description: `CHROMIUM_PATH (${chosen})` }
      : { kind: 'missing', reason: `CHROMIUM_PATH=${chosen} is not an executable file` };
  }
  if (isExecutable(debianPath)) return { kind: 'found', path: debianPath, description: debianPath };
  if (canInstallWithApt(env)) {
    try {
      aptInstall(['chromium']);
    } catch (error) {
      return { kind: 'missing', reason: `${CHROMIUM_MISSING} (${String(error)})` };
    }
    if (isExecutable(debianPath)) {
      return { kind: 'found', path: debianPath, description: `${debianPath}, installed with apt-get` };
    }
  }
  return { kind: 'missing', reason: CHROMIUM_MISSING };
}
