// The collections module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { collectionsModule } from './module.ts'
export { BANCOS, REGRAS, isBanco } from './boleto/bancos.ts'
export type { Banco, Beneficiario } from './boleto/bancos.ts'
export { getAccount } from './accounts/store.ts'
export type { CollectionAccount } from './accounts/store.ts'
export {
  ESTADO_COBRANCA_TEXTO, INSTRUCAO_TEXTO,
  ESTADO_RECOMPRA_TEXTO, ESTADO_RETORNO_TEXTO, FORMA_RECOMPRA_TEXTO, MOTIVO_IGNORADA_TEXTO, MOTIVO_RECOMPRA_TEXTO, OCORRENCIA_TEXTO,
  RESULTADO_LINHA_TEXTO,
} from './labels.ts'
// The largest retorno file the API takes: the back office's form reads no more of one.
export { RETORNO_MAX_BYTES } from './retornos/routes.ts'
export { feriadosDoLugar } from './feriados.ts'
