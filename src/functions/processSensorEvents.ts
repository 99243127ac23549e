import { processTrigger } from '../composition/processTrigger';
import { getRuntime } from '../composition/runtime';
import { registerProcessSensorEvents } from '../processing/registerProcessSensorEvents';

registerProcessSensorEvents(processTrigger(getRuntime()));
