import {
  type TriggerSwitchError,
  TriggerSwitchPermissionError,
  TriggerSwitchRequestError,
  TriggerSwitchTransientError,
} from './errors';

export interface ArmTarget {
  readonly subscriptionId: string;
  readonly resourceGroup: string;
  readonly siteName: string;
}

/** The one place that decides which ARM failures are permanent and which are worth retrying. */
export function classifyArmError(error: unknown, operation: string, target: ArmTarget): TriggerSwitchError {
  const status = statusCodeOf(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (status === 401 || status === 403) {
    const scope = `/subscriptions/${target.subscriptionId}/resourceGroups/${target.resourceGroup}/providers/Microsoft.Web/sites/${target.siteName}`;
    return new TriggerSwitchPermissionError(
      `ARM refused to ${operation} the app settings of ${target.siteName} (HTTP ${status}). ` +
        `The app's identity needs Microsoft.Web/sites/config/*: assign it the "Website Contributor" role ` +
        `scoped to the function app (${scope}). Retrying will not help until the role is granted.`,
      status,
    );
  }
  if (status === undefined || status === 408 || status === 429 || status >= 500) {
    return new TriggerSwitchTransientError(
      `ARM ${operation} of the app settings of ${target.siteName} failed (${status === undefined ? 'no response' : `HTTP ${status}`}): ${detail}`,
      status,
    );
  }
  return new TriggerSwitchRequestError(
    `ARM ${operation} of the app settings of ${target.siteName} was rejected (HTTP ${status}); check AZURE_SUBSCRIPTION_ID, AZURE_RESOURCE_GROUP and AZURE_FUNCTIONAPP_NAME: ${detail}`,
    status,
  );
}

/** RestError carries `statusCode`; network failures carry none. Duck-typed to avoid a deep import. */
function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return undefined;
  const { statusCode } = error;
  return typeof statusCode === 'number' ? statusCode : undefined;
}
