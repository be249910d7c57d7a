import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// Which folder may import which (the platform no module, a module another only through its entry, no cycles) is
// checked by scripts/check-boundaries.mjs, the second half of `npm run lint`. The rules here are about files.

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'scratch/', 'test-results/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'max-len': ['error', { code: 160, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    // Pages and e-mails are built with html`…` (src/platform/lib/html.ts), which escapes every value it is not told is markup:
    // a hand-escaped template is one forgotten call away from an injection.
    files: ['src/modules/site/**/*.ts', 'src/modules/account/web/**/*.ts', 'src/platform/outbox/**/*.ts', 'src/modules/contact/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['**/markup-escape.ts', '**/markup-escape'],
          message: 'Build HTML with html`…` from src/platform/lib/html.ts: it escapes by default.',
        }],
      }],
    },
  },
  {
    // The composition takes each area's schema and the types of Config, nothing that runs.
    files: ['src/config.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['./platform/*/*', './modules/*/*', '!./platform/*/settings.ts', '!./platform/*/*-settings.ts', '!./modules/*/settings.ts',
            '!./platform/settings/*', '!./platform/lib/startup-error.ts'],
          allowTypeImports: true,
          message: 'src/config.ts imports only the areas\' settings.ts (and types): a setting is declared in its area.',
        }],
      }],
    },
  },
)
