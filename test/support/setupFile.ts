// Runs before each test file: the fake functions core must exist before anything loads @azure/functions.
import { resetRegistrations } from '../../sim/host/fakeFunctionsCore';

resetRegistrations();
