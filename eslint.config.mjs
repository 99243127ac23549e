// Type-aware linting over src, test, bench, scripts, demo, sim and verify.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.test-output/**', '.tools/**', 'eslint.config.mjs'] },
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
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/test/**', '**/sim/**', '**/demo/**', '**/bench/**'],
              message: 'src/ imports only src/ and packages.',
            },
          ],
        },
      ],
    },
  },
);
