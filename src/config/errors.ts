export interface ConfigProblem {
  readonly setting: string;
  readonly message: string;
}

/** Start-up failure listing every missing or malformed setting in one message. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  override readonly name = 'ConfigError';

  constructor(readonly problems: readonly ConfigProblem[]) {
    super(
      `Breakwater configuration is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  - ${p.setting}: ${p.message}`).join('\n'),
    );
  }
}
