/** The checkpoint moved under us (the host or another instance wrote it): re-read, never overwrite. */
export class CheckpointMovedError extends Error {
  readonly code = 'CHECKPOINT_MOVED';
  override readonly name = 'CheckpointMovedError';
}
