import type { BreakerOrchestrationInput } from './breakerStatus';
import { InvalidOrchestrationInputError } from './errors';

export function parseOrchestrationInput(value: unknown): BreakerOrchestrationInput {
  if (typeof value !== 'object' || value === null)
    throw new InvalidOrchestrationInputError('input is not an object');
  const { tripId, functionName, failuresInWindow } = value as Record<string, unknown>;
  if (typeof tripId !== 'string' || tripId === '')
    throw new InvalidOrchestrationInputError('tripId is missing');
  if (typeof functionName !== 'string' || functionName === '')
    throw new InvalidOrchestrationInputError('functionName is missing');
  return {
    tripId,
    functionName,
    failuresInWindow: typeof failuresInWindow === 'number' ? failuresInWindow : undefined,
  };
}
