// The registry module's public entry.
export { registryModule } from './module.ts'
