import { boundText } from '../kernel/boundText';
import { UnreadableHistoryError } from './errors';

/**
 * The version this build's orchestrator is written for: host.json's
 * `extensions.durableTask.defaultVersion`, which the Durable extension stamps on every instance the
 * app starts (the starts name no version). With the default match strategy (CurrentOrOlder) a worker
 * runs instances of its version or older, unversioned ones included; a newer one waits for its build.
 */
export const ORCHESTRATION_VERSION = '1.0';

/**
 * The one gate for histories written by another build (docs/how-it-works.md#histories-of-other-builds).
 * This build reads an instance of its own version, or an unversioned one: started by release 0.4.0,
 * which wrote the same shapes. What builds before 0.4.0 wrote (switch outcomes as `{ ok }`, episode
 * settings without `channels`) is not read: 0.4.0 is the first release. A change to what the history
 * holds raises ORCHESTRATION_VERSION and branches here, on `context.df.version`, and nowhere else.
 */
export function checkHistoryVersion(version: string | null | undefined): void {
  // An unversioned instance comes with Version null from the extension ('' in some histories).
  if (version === undefined || version === null || version === '' || version === ORCHESTRATION_VERSION)
    return;
  throw new UnreadableHistoryError(
    `this build reads orchestrations of version ${ORCHESTRATION_VERSION} and unversioned ones (0.4.0); ` +
      `this one is version ${JSON.stringify(boundText(version, 40))}: run it on the build that started it`,
  );
}
