import { registerInternalApproval } from '../approval/registerInternalApproval';
import { getOperatorRuntime } from '../composition/operatorRuntime';

registerInternalApproval(() => getOperatorRuntime().operator.signedInApprovers);
