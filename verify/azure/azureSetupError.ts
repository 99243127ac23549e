/** What keeps the azure target from starting, in one line (no azd environment, no credential, no access). */
export class AzureSetupError extends Error {
  readonly code = 'AZURE_SETUP';
  override readonly name = 'AzureSetupError';
}

export const isAzureSetupError = (e: unknown): e is AzureSetupError => e instanceof AzureSetupError;
