import { boundText } from '../kernel/boundText';
import {
  canonicalBlobName,
  DUPLICATE_MARK,
  PROPERTIES_SUFFIX,
  unknownBlobPrefix,
} from './blobQueueDeadLetterStore';
import type { DeadLetterMessage } from './deadLetterMessage';

/** What an Event Hubs partition id looks like (it becomes part of a blob name). */
const PARTITION_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** After the canonical name: nothing, or the batch position of a duplicate sequence number. */
const DUPLICATE_TAIL = new RegExp(`^(${escapeRegExp(DUPLICATE_MARK)}\\d{1,6})?$`);
/** After the prefix of a letter without metadata: the dead-letter time and a random UUID. */
const UNKNOWN_TAIL = new RegExp(
  `^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}(${escapeRegExp(DUPLICATE_MARK)}\\d{1,6})?$`,
);

/**
 * Why redrive must not touch the blobs this message names, or undefined when they are the ones the
 * dead-letter store wrote for it: under this function's prefix and, when the message has them, for
 * its own partition and sequence number. Messages are re-queued by hand (docs/operations.md), so a
 * name naming another letter's body, or climbing out of the container with `../`, is refused.
 */
export function blobNameProblem(message: DeadLetterMessage, functionName: string): string | undefined {
  const quoted = (name: string) => JSON.stringify(boundText(name, 200));
  if (message.functionName !== functionName)
    return `it is a dead letter of function ${quoted(message.functionName)}, not of ${functionName}`;
  const { partitionId, sequenceNumber, blobName } = message;
  if (partitionId !== null && sequenceNumber !== null) {
    if (!PARTITION_ID.test(partitionId) || sequenceNumber < 0)
      return `its partition ${quoted(partitionId)} or sequence number ${sequenceNumber} is not valid`;
    const expected = canonicalBlobName(functionName, partitionId, sequenceNumber);
    if (!blobName.startsWith(expected) || !DUPLICATE_TAIL.test(blobName.slice(expected.length)))
      return (
        `its blob name ${quoted(blobName)} is not the body of partition ${partitionId}, ` +
        `sequence number ${sequenceNumber} (${expected})`
      );
  } else {
    const prefix = unknownBlobPrefix(functionName);
    if (!blobName.startsWith(prefix) || !UNKNOWN_TAIL.test(blobName.slice(prefix.length)))
      return `its blob name ${quoted(blobName)} is not a name the dead-letter store gives (${prefix}…)`;
  }
  const properties = message.propertiesBlobName;
  if (properties !== undefined && properties !== `${blobName}${PROPERTIES_SUFFIX}`)
    return `its properties blob ${quoted(properties)} is not ${blobName}${PROPERTIES_SUFFIX}`;
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
