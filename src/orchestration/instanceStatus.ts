import type { DurableClient, DurableOrchestrationStatus } from 'durable-functions';

/**
 * The instance's status, or undefined when there is none. `getStatus` throws on a 404 (and only
 * says so in its message); every other error is rethrown.
 */
export async function findInstance(
  client: DurableClient,
  instanceId: string,
): Promise<DurableOrchestrationStatus | undefined> {
  try {
    return await client.getStatus(instanceId);
  } catch (error) {
    if (error instanceof Error && /\b404\b/.test(error.message)) return undefined;
    throw error;
  }
}

/** Runtime statuses of an instance that is alive (or will be): never start over one of these. */
const LIVE = new Set<string>(['Pending', 'Running', 'ContinuedAsNew', 'Suspended']);

export const isLive = (status: DurableOrchestrationStatus) => LIVE.has(status.runtimeStatus);

/** Ended without finishing its work (failed, terminated, canceled): the watchdog may start it again. */
export const isStopped = (status: DurableOrchestrationStatus) => STOPPED.has(status.runtimeStatus);

const STOPPED = new Set<string>(['Failed', 'Terminated', 'Canceled']);
