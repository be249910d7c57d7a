// The status module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { statusModule } from './module.ts'
export { ManutencaoOut, ServicoOut, StatusOut, VersionOut } from './schemas.ts'
export type { ManutencaoOutT, StatusOutT } from './schemas.ts'
export { StatusSnapshot } from './snapshot.ts'
