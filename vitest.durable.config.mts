import { defineConfig } from 'vitest/config';

// The breaker's orchestration on the real Durable extension (npm run test:durable, which builds the .NET
// host first). Kept out of `npm test`, whose include pattern (*.test.ts) does not match these files, so a
// machine with only Node and npm never needs .NET. One file at a time: each file starts its own Azurite and
// .NET host, and two at once on a 2-core machine only make both slower (the extension's local RPC endpoint
// itself moves to a random port when 17071 is taken).
export default defineConfig({
  test: {
    include: ['test/durableExtension/**/*.scenario.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
