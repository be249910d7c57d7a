// The origination module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { originationModule } from './module.ts'
export { parseDocumento, raizCnpj } from './documento.ts'
export { contasOf, getParty } from './registers/store.ts'
export type { Party, StoredConta } from './registers/store.ts'
export { cedentes, sacados } from './registers/tables.ts'
export { MOTIVOS_ISENCAO } from './registers/iof-profile.ts'
export type { Documento, TipoPessoa } from './documento.ts'
