// Types for the parts of eslint.config.mjs that test/layout/srcLayers.test.ts checks.
import type { Linter } from 'eslint';

export declare const srcLayers: readonly string[];
export declare function srcLayerRules(): Linter.Config[];
declare const config: Linter.Config[];
export default config;
