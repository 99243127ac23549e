import { processTrigger } from '../composition/processTrigger';
import { getRuntime } from '../composition/runtime';
import { registerProcessSensorEvents } from '../composition/registerProcessSensorEvents';

registerProcessSensorEvents(processTrigger(getRuntime()));
