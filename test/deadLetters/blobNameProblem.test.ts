/**
 * The redrive's check of the blob names a (possibly hand-edited) queue message names: only the blobs the
 * dead-letter store wrote for that very letter. Names that start right and then climb out with `../`
 * must be refused as well as a leading `../`.
 */
import { describe, expect, it } from 'vitest';

import { blobNameProblem } from '../../src/deadLetters/blobNameProblem';
import {
  canonicalBlobName,
  PROPERTIES_SUFFIX,
  unknownBlobPrefix,
} from '../../src/deadLetters/blobQueueDeadLetterStore';
import type { DeadLetterMessage } from '../../src/deadLetters/deadLetterMessage';

const FN = 'ProcessSensorEvents';
const keyed: DeadLetterMessage = {
  version: 1,
  functionName: FN,
  blobName: canonicalBlobName(FN, '3', 42),
  bodyBytes: 10,
  partitionId: '3',
  offset: '4200',
  sequenceNumber: 42,
  enqueuedTimeUtc: '2026-01-01T00:00:00.000Z',
  reason: 'failed',
  error: { name: 'Error', message: 'x' },
  attempts: 3,
  deadLetteredAt: '2026-01-01T00:00:01.000Z',
  invocationId: 'inv-1',
};
const unknown: DeadLetterMessage = {
  ...keyed,
  partitionId: null,
  sequenceNumber: null,
  offset: null,
  blobName: `${unknownBlobPrefix(FN)}2026-01-01T00:00:01.000Z-0b6b6a36-5f8f-4a4e-9d0e-3b5c1a2e7f10`,
};

describe('redrive: the blob names a dead-letter message may name', () => {
  it('accepts the names the store gives', () => {
    expect(blobNameProblem(keyed, FN)).toBeUndefined();
    expect(blobNameProblem({ ...keyed, blobName: `${keyed.blobName}.dup7` }, FN)).toBeUndefined();
    expect(blobNameProblem(unknown, FN)).toBeUndefined();
  });

  it('refuses a name that starts with its own prefix and climbs out to another letter or container', () => {
    for (const message of [keyed, unknown]) {
      for (const tail of ['/../../other-container/secret', '/../p4/0000000000000099', '/../../../x']) {
        const climbing = { ...message, blobName: `${message.blobName}${tail}` };
        expect(blobNameProblem(climbing, FN)).toMatch(/^its blob name ".*\.\.\/.*" is not/);
      }
      for (const climbing of [`${FN}/../other/${FN}/p3/x`, `${FN}/p3/../../other-container/x`]) {
        expect(blobNameProblem({ ...message, blobName: climbing }, FN)).toMatch(/^its blob name/);
      }
      // The properties blob is held to the same rule.
      const props = {
        ...message,
        propertiesBlobName: `${message.blobName}/../../other/x${PROPERTIES_SUFFIX}`,
      };
      expect(blobNameProblem(props, FN)).toMatch(/^its properties blob/);
    }
  });
});
