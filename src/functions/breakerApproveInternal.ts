import { registerInternalApproval } from '../orchestration/registerInternalApproval';

registerInternalApproval();
