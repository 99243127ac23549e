import { getOperatorRuntime } from '../composition/operatorRuntime';
import { registerOperator } from '../operator/registerOperator';

/** `/api/breaker/{status,trip,reset,history,dashboard,maintenance}` with a function key. */
registerOperator(getOperatorRuntime().operator);
