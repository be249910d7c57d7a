// The pricing module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { pricingModule } from './module.ts'
export { MissingIofRate, price, pricingProblem, TIPOS_TITULO } from './engine.ts'
export type { Pricing, PricingInput, Terms, TipoTitulo } from './engine.ts'
export { effectiveProfile, rateOn } from './iof-rates.ts'
export type { IofRate, PerfilIof } from './iof-rates.ts'
export { iofTable } from './iof/store.ts'
