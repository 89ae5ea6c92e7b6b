// Lint rules that hold the architecture (ARCHITECTURE.md): a pure core, no `any`, one log channel.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'test-results/**', 'sample/**', 'media/**', 'scripts/code-server/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['src/core/**', 'src/shared/**', 'src/cli/**', 'webview/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'Only src/extension may import vscode.' }] }],
    },
  },
  {
    files: ['src/extension/**'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['scripts/**/*.mjs', 'scripts/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
  },
);
