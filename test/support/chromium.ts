import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { inject } from 'vitest';

/** Flags for a quiet, sandbox-free headless Chromium that talks to nothing but localhost. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts the Chromium the global setup found (CHROMIUM_PATH, Debian's, or one it installed) through
 * playwright-core with a fresh profile directory (removed on close). Without one the test fails, saying
 * why: browser tests never skip silently.
 */
export async function startChromium(viewport = { width: 1000, height: 900 }): Promise<Browser> {
  const found = inject('chromium');
  if (found.kind === 'missing') throw new Error(found.reason);
  const profile = await mkdtemp(path.join(tmpdir(), 'breakwater-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: found.path,
    headless: true,
    args: FLAGS,
    viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Where screenshots go (git-ignored), so a person can look at the pages a test saw. */
export const SCREENSHOT_DIR = path.join(__dirname, '..', '..', '.test-output', 'screenshots');
