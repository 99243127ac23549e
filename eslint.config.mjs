// Type-aware linting over src, test, bench, scripts, demo, sim and verify.
import js from '@eslint/js';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

/**
 * The folders of src/, top to bottom: a folder imports only the folders below it (README, "Layout").
 * This list is the one place the order is written; the rules below are generated from it.
 */
export const srcLayers = [
  'functions',
  'composition',
  'config',
  'operator',
  'faults',
  'approval',
  'watchdog',
  'orchestration',
  'notify',
  'retention',
  'processing',
  'deadLetters',
  'breaker',
  'sinks',
  'hub',
  'maintenance',
  'control',
  'storage',
  'web',
  'kernel',
];

/** Per folder of src/: no test/sim/demo/bench, and no folder above it in `srcLayers`. */
export function srcLayerRules() {
  const notProduct = {
    group: ['**/test/**', '**/sim/**', '**/demo/**', '**/bench/**'],
    message: 'src/ imports only src/ and packages.',
  };
  const base = {
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [notProduct] }] },
  };
  return [
    base,
    ...srcLayers.slice(1).map((folder, i) => {
      const above = srcLayers.slice(0, i + 1);
      return {
        files: [`src/${folder}/**/*.ts`],
        rules: {
          'no-restricted-imports': [
            'error',
            {
              patterns: [
                notProduct,
                {
                  regex: `^(\\.\\./)+(${above.join('|')})(/|$)`,
                  message: `src/${folder}/ imports only the folders below it in srcLayers (eslint.config.mjs): not ${above.join(', ')}.`,
                },
              ],
            },
          ],
        },
      };
    }),
  ];
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.package/**',
      'node_modules/**',
      '.test-output/**',
      '.tools/**',
      'eslint.config.mjs',
      'eslint.config.d.mts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Plain CommonJS run by node itself, without tsx (sim/host/coldStartWorker.cjs: a cold start as the
    // worker makes it): the recommended rules, no type information.
    files: ['**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: { require: 'readonly', process: 'readonly', __dirname: 'readonly', Buffer: 'readonly' },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Imports sorted by the linter (and fixed by `npm run lint -- --fix`): side-effect imports first, then
    // packages, then relative paths, each group in order. eslint-plugin-simple-import-sort: one rule, no
    // resolver to configure, autofixable (eslint-plugin-import's `order` needs a resolver for TypeScript).
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      'simple-import-sort/imports': ['error', { groups: [['^\\u0000'], ['^node:', '^@?\\w'], ['^\\.']] }],
      'simple-import-sort/exports': 'error',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Only test/ imports from test/; the product never imports the simulator or the tools around it.
    files: ['sim/**/*.ts', 'demo/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'verify/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/test/**'], message: 'Only test/ imports from test/.' }] },
      ],
    },
  },
  ...srcLayerRules(),
);
