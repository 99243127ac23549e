import { beforeAll, describe, it } from 'vitest';

import { sinkContractChecks } from './sinkContractChecks';
import type { SinkContractCheck, SinkContractSubject } from './sinkContractKit';

export { sinkContractChecks } from './sinkContractChecks';
export type { HeldReading, SinkContractSubject } from './sinkContractKit';
export { isSinkContractViolation, SinkContractViolation } from './sinkContractKit';

/** Creates the subject once per suite (start servers, open clients); may be async. */
export type SinkContractSetup = () => SinkContractSubject | Promise<SinkContractSubject>;

/** The outcome of one promise, for a run outside a test runner. */
export interface SinkContractResult {
  readonly promise: string;
  readonly status: 'kept' | 'broken' | 'skipped';
  readonly message?: string;
}

const isSkipped = (check: SinkContractCheck, subject: SinkContractSubject) =>
  check.needs === 'orderingKey'
    ? subject.newSink().orderingKey === undefined
    : check.needs !== undefined && subject[check.needs] === undefined;

/**
 * The sink contract as a vitest suite, one test per promise:
 * `describeSinkContract('my sink', () => ({ newSink: () => makeMySink(...), readBack }))`.
 */
export function describeSinkContract(name: string, setup: SinkContractSetup): void {
  describe(`sink contract: ${name}`, () => {
    let subject: SinkContractSubject;
    beforeAll(async () => {
      subject = await setup();
    });
    for (const check of sinkContractChecks) {
      it(check.promise, async (context) => {
        if (isSkipped(check, subject)) {
          context.skip(`needs ${check.needs ?? ''} from the subject`);
          return;
        }
        await check.run(subject);
      });
    }
  });
}

/** Runs every promise against `subject` and reports each (used to show that a broken sink fails). */
export async function runSinkContract(subject: SinkContractSubject): Promise<SinkContractResult[]> {
  const results: SinkContractResult[] = [];
  for (const check of sinkContractChecks) {
    if (isSkipped(check, subject)) {
      results.push({ promise: check.promise, status: 'skipped' });
      continue;
    }
    try {
      await check.run(subject);
      results.push({ promise: check.promise, status: 'kept' });
    } catch (error) {
      results.push({
        promise: check.promise,
        status: 'broken',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return results;
}
