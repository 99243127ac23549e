// The port helpers live with the local services in sim/; this path stays for the tests that import it.
export { freePort, waitForPort } from '../../sim/services/freePort';
