// The operations module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { operationsModule } from './module.ts'
export { isChaveNfe } from './chave-nfe.ts'
export { InvalidStateError, NoCustomerCnpjError, NoSacadoEmailError } from './errors.ts'
export { CANCELLABLE } from './flow/cancel.ts'
export {
  ESTADO_CONFIRMACAO_TEXTO, ESTADO_REGISTRO_TEXTO, ESTADO_DESEMBOLSO_TEXTO, ESTADO_OPERACAO_TEXTO, ESTADO_TITULO_TEXTO, inWords, TIPO_TITULO_TEXTO,
} from './labels.ts'
// The títulos' table, for the charges (collections) that read a título and its balance.
export { titulos } from './tables.ts'
export { appliesTo as holidayAppliesTo } from './pricing-request.ts'
