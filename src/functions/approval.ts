import { registerApproval } from '../approval/registerApproval';
import { getOperatorRuntime } from '../composition/operatorRuntime';

/** `GET|POST /api/approve?token=…`: the emailed restart link (anonymous; the signed token is the credential). */
registerApproval(getOperatorRuntime().approval);
