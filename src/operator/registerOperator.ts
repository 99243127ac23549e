import { app, type HttpHandler, type HttpMethod } from '@azure/functions';

import { makeFaultHandler } from '../faults/faultHandler';
import { durableClientInput } from '../orchestration/durableOrchestrationControl';
import { makeDashboardHandler } from './dashboardHandler';
import { makeHistoryHandler } from './historyHandler';
import { makeMaintenanceHandler } from './maintenanceHandler';
import type { OperatorDeps } from './operatorDeps';
import { makeResetHandler } from './resetHandler';
import { makeStatusHandler } from './statusHandler';
import { makeTripHandler } from './tripHandler';

/** Function names and routes of the operator surface (function-key auth). */
export const OperatorFunction = {
  status: 'OperatorStatus',
  trip: 'OperatorTrip',
  reset: 'OperatorReset',
  history: 'OperatorHistory',
  dashboard: 'OperatorDashboard',
  fault: 'OperatorFault',
  maintenance: 'OperatorMaintenance',
} as const;

/** Registers the operator API, dashboard and fault switch. The function key is the credential (`?code=` or header). */
export function registerOperator(deps: OperatorDeps): void {
  const route = (name: string, path: string, method: HttpMethod | HttpMethod[], handler: HttpHandler) => {
    app.http(name, {
      route: `breaker/${path}`,
      methods: Array.isArray(method) ? method : [method],
      authLevel: 'function',
      extraInputs: [durableClientInput],
      handler,
    });
  };
  route(OperatorFunction.status, 'status', 'GET', makeStatusHandler(deps));
  route(OperatorFunction.trip, 'trip', 'POST', makeTripHandler(deps));
  route(OperatorFunction.reset, 'reset', 'POST', makeResetHandler(deps));
  route(OperatorFunction.history, 'history', 'GET', makeHistoryHandler(deps));
  route(OperatorFunction.dashboard, 'dashboard', 'GET', makeDashboardHandler(deps));
  // Every method reaches the handler, so a wrong one gets a 405 that says which are allowed.
  route(
    OperatorFunction.maintenance,
    'maintenance',
    ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    makeMaintenanceHandler(deps),
  );
  if (deps.faultSwitch !== undefined)
    route(OperatorFunction.fault, 'fault', ['GET', 'POST'], makeFaultHandler(deps.faultSwitch));
}
