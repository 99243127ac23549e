import { registerInternalApproval } from '../approval/registerInternalApproval';

registerInternalApproval();
