// Lint rules that hold the architecture (ARCHITECTURE.md): a pure core, no `any`, one log channel.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.cache/**',
      'test-results/**',
      'sample/**',
      'sample-paper/**',
      'media/**',
      'scripts/code-server/**',
      '**/.personalab/**',
      'tmp/**',
      '.gl/**',
      '.whl/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // The PI scanner, the response parser and the audit match control characters and combining marks on purpose.
      'no-control-regex': 'off',
      'no-misleading-character-class': 'off',
    },
  },
  {
    files: ['src/core/**', 'src/shared/**', 'src/cli/**', 'webview/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'Only src/extension may import vscode.' }] },
      ],
    },
  },
  {
    files: ['src/extension/**'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['scripts/**/*.mjs', 'scripts/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'URL',
          'Buffer',
          'fetch',
          'performance',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'AbortController',
          'TextDecoder',
          'TextEncoder',
          'structuredClone',
        ].map((g) => [g, 'readonly']),
      ),
    },
  },
);
