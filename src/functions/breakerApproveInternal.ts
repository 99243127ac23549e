import { getOperatorRuntime } from '../composition/operatorRuntime';
import { registerInternalApproval } from '../orchestration/registerInternalApproval';

registerInternalApproval(() => getOperatorRuntime().operator.signedInApprovers);
