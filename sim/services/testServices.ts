import { type AzuriteService, azuriteVersion, startAzurite } from './azurite';
import { type ChromiumSource, locateChromium } from './chromium';
import { locateRedis, type RedisService, startRedis } from './redis';

/** What `npm test` runs against: one Azurite, one Redis, and the Chromium the browser tests drive. */
export interface TestServices {
  readonly storageConnectionString: string;
  readonly redisUrl: string;
  readonly chromium: ChromiumSource;
  /** One line saying what the run used (printed at the start of `npm test`). */
  readonly summary: string;
  readonly stop: () => Promise<void>;
}

/**
 * Obtains what the test run needs (see locateRedis / locateChromium for the order) and starts it. If a
 * step fails halfway, whatever was started is stopped before the error propagates.
 */
export async function startTestServices(env: NodeJS.ProcessEnv = process.env): Promise<TestServices> {
  const redisSource = locateRedis(env);
  const chromium = locateChromium(env);
  let azurite: AzuriteService | undefined;
  let redisUrl: string;
  let redis: RedisService | undefined;
  try {
    azurite = await startAzurite();
    if (redisSource.kind === 'url') {
      redisUrl = redisSource.url;
    } else {
      redis = await startRedis();
      redisUrl = redis.url;
    }
  } catch (error) {
    await azurite?.stop();
    throw error;
  }
  const browser = chromium.kind === 'found' ? chromium.description : 'MISSING (browser tests will fail)';
  const summary =
    `test services: Node ${process.version}; Azurite ${azuriteVersion()} from node_modules; ` +
    `Redis from ${redisSource.description}; Chromium ${browser}`;
  const started = azurite;
  return {
    storageConnectionString: started.connectionString,
    redisUrl,
    chromium,
    summary,
    stop: async () => {
      await Promise.all([started.stop(), redis?.stop()]);
    },
  };
}
