// The back office module's public entry.
export { backofficeModule } from './module.ts'
export { BACKOFFICE_PATHS } from './paths.ts'
