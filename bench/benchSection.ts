/** What every bench section receives: the run's local services and one way to print. */
export interface BenchContext {
  readonly redisUrl: string;
  readonly storageConnectionString: string;
  readonly print: (line: string) => void;
}

/** One part of `npm run bench`; run.ts lists them, so a new section is one more file. */
export interface BenchSection {
  readonly title: string;
  run(context: BenchContext): Promise<void>;
}
