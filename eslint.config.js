import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// Folders that hold one feature each. http/ (cross-cutting HTTP policy) and db/ (the database layer) serve
// every feature and import none of them: a feature plugs into them, never the other way round.
const FEATURES = ['contact', 'spam', 'mail', 'site', 'status', 'cli', 'metrics', 'auth', 'account-api', 'account-web', 'mcp', 'idempotency', 'telemetry']

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
    files: ['src/mail/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['contact', 'status', 'auth'].map((f) => `../${f}/*`),
          message: 'mail/ is the outbox of every message: producers render theirs and queue it (enqueueMessage); mail/ knows none of them.',
        }],
      }],
    },
  },
  {
    files: ['src/http/**/*.ts', 'src/db/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: FEATURES.map((f) => `../${f}/*`),
          message: 'http/ and db/ import no feature folder (README, Development): pass what they need in from app.ts.',
        }],
      }],
    },
  },
)
