// The operations module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { operationsModule } from './module.ts'
export { isChaveNfe } from './chave-nfe.ts'
export { CANCELLABLE } from './flow/cancel.ts'
