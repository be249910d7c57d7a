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
  {
    // Pages and e-mails are built with html`…` (src/html.ts), which escapes every value it is not told is markup:
    // a hand-escaped template is one forgotten call away from an injection.
    files: ['src/site/**/*.ts', 'src/account-web/**/*.ts', 'src/mail/**/*.ts', 'src/contact/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/markup-escape.ts', '**/markup-escape'], message: 'Build HTML with html`…` from src/html.ts: it escapes by default.' }],
      }],
    },
  },
  {
    // The one settings loader knows no area: each declares its own schema, and src/config.ts composes them.
    files: ['src/settings/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: [...FEATURES, 'http', 'db'].map((f) => `../${f}/*`),
          message: 'settings/ imports no area (docs/architecture.md): an area declares its settings in its own settings.ts, composed in src/config.ts.',
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
          group: [...FEATURES, 'http', 'db'].flatMap((f) => [`./${f}/*`, `!./${f}/settings.ts`, `!./${f}/*-settings.ts`]),
          allowTypeImports: true,
          message: 'src/config.ts imports only the areas\' settings.ts (and types): a setting is declared in its area.',
        }],
      }],
    },
  },
)
