/**
 * The storage services' limits the conformance layer enforces: the one list (sim/README.md cites each
 * from Microsoft's documentation). Sizes are bytes; Table strings count UTF-16 code units of 2 bytes.
 */
export const storageLimits = {
  /** Discrete comparisons (eq, ne, gt, ge, lt, le) in one Table `$filter`. */
  filterComparisons: 15,
  /** Operations in one entity group transaction (one change set). */
  transactionOperations: 100,
  /** Payload of one entity group transaction. */
  transactionBytes: 4 * 1024 * 1024,
  /** Properties of one entity, the three system properties (PartitionKey, RowKey, Timestamp) included. */
  entityProperties: 255,
  /** All data of one entity's properties. */
  entityBytes: 1024 * 1024,
  /** One string (UTF-16) or binary property value. */
  propertyBytes: 64 * 1024,
  /** One PartitionKey or RowKey (a UTF-16 string). */
  keyBytes: 1024,
  /** One queue message's text (UTF-8, as sent). */
  queueMessageBytes: 64 * 1024,
  /** One blob name, in characters. */
  blobNameChars: 1024,
  /** All metadata names and values of one blob or container. */
  metadataBytes: 8 * 1024,
} as const;

/**
 * Characters the Table service refuses in PartitionKey and RowKey: `/ \ # ?` and the control
 * characters U+0000-U+001F and U+007F-U+009F.
 */
// eslint-disable-next-line no-control-regex
export const forbiddenKeyCharacters = /[/\\#?\u0000-\u001f\u007f-\u009f]/;
