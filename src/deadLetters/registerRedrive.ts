import { app } from '@azure/functions';

import { makeRedriveHandler, type RedriveDeps } from './redriveHandler';

export const REDRIVE_FUNCTION = 'RedriveDeadLetters';

/** Queue trigger on the dead-letter queue (binding expression, so the setting names the queue). */
export function registerRedrive(deps: RedriveDeps): void {
  app.storageQueue(REDRIVE_FUNCTION, {
    queueName: '%DEAD_LETTER_QUEUE%',
    connection: 'AzureWebJobsStorage',
    handler: makeRedriveHandler(deps),
  });
}
