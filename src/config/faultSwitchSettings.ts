import { boolean, integer } from './settingKinds';

/**
 * Settings of the fault switch (part of the one catalogue in settings.ts). Production deployments
 * leave it off: `npm run verify` turns it on for its own run and back off (docs/demo.md).
 */
export const faultSwitchSettings = {
  FAULT_SWITCH_ENABLED: boolean({
    description:
      'Lets an operator take the sample Table sink down on purpose (POST /api/breaker/fault, function key) for at most ' +
      'FAULT_SWITCH_MAX_MINUTES; every use is logged. Only for a verify run on a sandbox: production leaves it false.',
    default: 'false',
    example: 'false',
  }),
  BREAKWATER_VERIFY_ALLOWED: boolean({
    description:
      'Marks a sandbox deployment that `npm run verify` may run its outage on (it reads this through ARM and refuses ' +
      'any app without it), and the app refuses FAULT_SWITCH_ENABLED=true without it. Set by the Bicep parameter allowVerify ' +
      '(`azd env set BREAKWATER_VERIFY_ALLOWED true`); never on production.',
    default: 'false',
    example: 'false',
  }),
  FAULT_SWITCH_MAX_MINUTES: integer({
    description:
      'Longest a fault may be set for; it switches itself off when its time is up, whatever happens to the caller.',
    default: '15',
    example: '15',
    min: 1,
    max: 60,
  }),
} as const;
