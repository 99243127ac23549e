import { processTrigger } from '../composition/processTrigger';
import { registerProcessSensorEvents } from '../composition/registerProcessSensorEvents';
import { getRuntime } from '../composition/runtime';

registerProcessSensorEvents(processTrigger(getRuntime()));
