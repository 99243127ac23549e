/**
 * `npm run bench`: starts its own Azurite and redis-server, runs every section once on this machine and
 * prints the figures. Not a test: nothing here fails on a number. Add a section by adding a file that
 * exports a BenchSection and listing it below.
 */
import os from 'node:os';

import { startAzurite } from '../sim/services/azurite';
import { locateRedis, startRedis } from '../sim/services/redis';
import type { BenchContext, BenchSection } from './benchSection';
import { coldStartSection } from './coldStartSection';
import { cpuPerEventSection } from './cpuPerEventSection';
import { httpThroughputSection } from './httpThroughputSection';
import { runMemoryBench } from './memory';
import { outageSection } from './outageSection';
import { pipelineSection } from './pipelineSection';
import { processingSection } from './processingSection';
import { redisMemorySection } from './redisMemorySection';
import { redisRecordSection } from './redisRecordSection';
import { sinkThroughputSection } from './sinkThroughputSection';
import { storageCallsSection } from './storageCallsSection';
import { tableRecordSection } from './tableRecordSection';
import { telemetryCostSection } from './telemetryCostSection';

const sections: readonly BenchSection[] = [
  redisRecordSection,
  redisMemorySection,
  tableRecordSection,
  processingSection,
  pipelineSection,
  outageSection,
  storageCallsSection,
  sinkThroughputSection,
  httpThroughputSection,
  cpuPerEventSection,
  telemetryCostSection,
  coldStartSection,
];

function machine(redis: string): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  return `${cpu}, ${os.cpus().length} vCPU, load average ${load}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}, ${redis}`;
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--memory') {
    const [seconds = 60, rate = 100] = args.slice(1).map(Number);
    await runMemoryBench(seconds, rate, (line) => process.stdout.write(`${line}\n`));
    return;
  }
  const only = args;
  // Redis as the test run finds it (REDIS_URL, redis-server on PATH, else apt-get where allowed).
  const source = locateRedis();
  const [azurite, redis] = await Promise.all([
    startAzurite(),
    source.kind === 'url' ? { url: source.url, stop: () => Promise.resolve() } : startRedis(),
  ]);
  const context: BenchContext = {
    redisUrl: redis.url,
    storageConnectionString: azurite.connectionString,
    print: (line) => {
      process.stdout.write(`${line}\n`);
    },
  };
  try {
    context.print(`Breakwater bench — ${new Date().toISOString()}`);
    context.print(`Machine: ${machine(source.description)}`);
    for (const section of sections) {
      if (only.length > 0 && !only.some((o) => section.title.toLowerCase().includes(o.toLowerCase())))
        continue;
      context.print(`\n## ${section.title}`);
      await section.run(context);
      // What this process holds after each section: the bench's own data, not a worker's (see --memory).
      const mem = process.memoryUsage();
      context.print(
        `bench process after this section: rss ${Math.round(mem.rss / 2 ** 20)} MiB, heap used ${Math.round(mem.heapUsed / 2 ** 20)} MiB`,
      );
    }
  } finally {
    await Promise.all([azurite.stop(), redis.stop()]);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
