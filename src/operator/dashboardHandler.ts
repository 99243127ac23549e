import type { HttpHandler } from '@azure/functions';

import { withEnvironment } from '../web/environmentBanner';
import { dashboardPage } from './dashboardPage';
import type { OperatorDeps } from './operatorDeps';
import { readOperatorStatus } from './operatorStatus';

/** `GET /api/breaker/dashboard` (function key): the status as one small HTML page. */
export function makeDashboardHandler(deps: OperatorDeps): HttpHandler {
  return withEnvironment(deps.environmentName, async (request, context) =>
    dashboardPage(await readOperatorStatus(deps, context), deps.policy, request.url),
  );
}
