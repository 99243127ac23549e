import { app, type HttpHandler, type HttpMethod } from '@azure/functions';

import { durableClientInput } from '../orchestration/durableOrchestrationControl';
import { makeDashboardHandler } from './dashboardHandler';
import { makeHistoryHandler } from './historyHandler';
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
} as const;

/** Registers the operator API and dashboard. The function key is the credential (`?code=` or header). */
export function registerOperator(deps: OperatorDeps): void {
  const route = (name: string, path: string, method: HttpMethod, handler: HttpHandler) => {
    app.http(name, {
      route: `breaker/${path}`,
      methods: [method],
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
}
