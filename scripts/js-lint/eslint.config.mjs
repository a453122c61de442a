// ESLint's rules for the handout page's script. The modules of resources/handout/js share one
// closure, so they are linted joined (lint-handout.mjs joins them as the build does): a name one
// module uses and no module defines, or one no module uses, is found across modules.
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'script',
      globals: { ...globals.browser },
    },
    rules: {
      eqeqeq: ['error', 'always'],
      'no-var': 'error',
      'prefer-const': 'error',
      'no-shadow': 'error',
      'no-use-before-define': ['error', { functions: false, classes: true, variables: false }],
      'no-unused-vars': ['error', { caughtErrors: 'none' }],
      strict: ['error', 'global'],
    },
  },
];
