/** A tool a local run needs is not there and cannot be obtained here; the message is one line to show. */
export class ToolMissingError extends Error {
  readonly code = 'TOOL_MISSING';
  override readonly name = 'ToolMissingError';
}

export const isToolMissingError = (e: unknown): e is ToolMissingError => e instanceof ToolMissingError;
