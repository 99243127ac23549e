import type { TokenCredential } from '@azure/core-auth';

import { makeArmTriggerSwitch } from '../control/armTriggerSwitch';
import { makeLocalTriggerSwitch } from '../control/localTriggerSwitch';
import type { ControlConfig } from '../control/triggerSwitch';
import type { TriggerSwitch } from '../control/triggerSwitch';
import type { Logger } from '../kernel/logger';

export interface TriggerSwitchDeps {
  /** Used only in arm mode; pass a lazy wrapper so local runs never build a credential. */
  readonly credential: TokenCredential;
  readonly logger: Logger;
  /** A local ARM-shaped server instead of Azure's (the simulator's; see LocalEndpoints). */
  readonly arm?: LocalArm;
}

/** An ARM-shaped HTTPS server and the CA certificate it serves under. */
export interface LocalArm {
  readonly url: string;
  readonly ca: string;
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
    ...(deps.arm === undefined ? {} : { endpoint: deps.arm.url, tls: { ca: deps.arm.ca } }),
  });
}
