import { getOperatorRuntime } from '../composition/operatorRuntime';
import { registerRedrive } from '../deadLetters/registerRedrive';

/** Queue trigger on %DEAD_LETTER_QUEUE%: re-processes dead letters while the circuit is CLOSED. */
registerRedrive(getOperatorRuntime().redrive);
