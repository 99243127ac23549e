import type { SettingName, settings } from './settings';

/** Every setting's parsed value (undefined when unset), as read once at start-up by loadConfig. */
export type SettingValues = {
  [K in SettingName]: ReturnType<(typeof settings)[K]['schema']['parse']> | undefined;
};
