import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// Folders that hold one feature each. http/ (cross-cutting HTTP policy), db/ (the database layer) and jobs/ (the
// platform's periodic jobs) serve every feature and import none of them: a feature plugs into them, never the
// other way round.
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
    files: ['src/http/**/*.ts', 'src/db/**/*.ts', 'src/jobs/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: FEATURES.map((f) => `../${f}/*`),
          message: 'http/, db/ and jobs/ import no feature folder (README, Development): pass what they need in from app.ts.',
        }],
      }],
    },
  },
)
