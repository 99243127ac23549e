import type { TokenCredential } from '@azure/core-auth';

import type { ControlConfig } from '../config/appConfig';
import type { Logger } from '../kernel/logger';
import { type ArmTlsSettings, makeArmTriggerSwitch } from './armTriggerSwitch';
import { makeLocalTriggerSwitch } from './localTriggerSwitch';
import type { TriggerSwitch } from './triggerSwitch';

export interface TriggerSwitchDeps {
  /** Used only in arm mode; pass a lazy wrapper so local runs never build a credential. */
  readonly credential: TokenCredential;
  readonly logger: Logger;
  /** Tests: a local ARM endpoint and its CA. */
  readonly armEndpoint?: string;
  readonly tls?: ArmTlsSettings;
}

/** Chooses the adapter by `config.control.mode` (TRIGGER_CONTROL). */
export function makeTriggerSwitch(
  config: { readonly control: ControlConfig },
  deps: TriggerSwitchDeps,
): TriggerSwitch {
  const { control } = config;
  if (control.mode === 'local') return makeLocalTriggerSwitch(deps.logger);
  return makeArmTriggerSwitch({
    target: control,
    credential: deps.credential,
    logger: deps.logger,
    ...(deps.armEndpoint === undefined ? {} : { endpoint: deps.armEndpoint }),
    ...(deps.tls === undefined ? {} : { tls: deps.tls }),
  });
}
