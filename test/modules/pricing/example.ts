// The acceptance example of produto.md §2.6 as inputs, and the IOF rows the spec states as facts (§2.4).
import type { IofRate } from '../../../src/modules/pricing/iof-rates.ts'
import type { PricingInput, Terms } from '../../../src/modules/pricing/engine.ts'

export const SPEC_IOF: IofRate[] = [
  { perfil: 'pj', vigenciaInicio: '2025-07-16', vigenciaFim: null, taxaDiaria: '0.000082', taxaAdicional: '0.0038', fonte: 'produto.md §2.4' },
  { perfil: 'pf', vigenciaInicio: '2025-07-16', vigenciaFim: null, taxaDiaria: '0.000082', taxaAdicional: '0.0038', fonte: 'produto.md §2.4' },
  { perfil: 'pj_simples', vigenciaInicio: '2025-07-16', vigenciaFim: null, taxaDiaria: '0.0000274', taxaAdicional: '0.0038', fonte: 'produto.md §2.4' },
  { perfil: 'pj', vigenciaInicio: '2008-01-03', vigenciaFim: '2025-05-22', taxaDiaria: '0.000041', taxaAdicional: '0.0038', fonte: 'produto.md §2.4' },
]

export const EXAMPLE_TERMS: Terms = {
  base: 'simples_30', taxaMensal: '0.035', taxaAdValorem: '0.003', tarifaPorTituloCentavos: 800n, tacCentavos: 15_000n,
  diasFloat: { duplicata_mercantil: 2, duplicata_servico: 2, cheque: 2, nota_promissoria: 2, ccb: 2, cte: 2 }, iof: 'calcular',
}

export const exampleInput = (terms: Partial<Terms> = {}): PricingInput => ({
  dataOperacao: '2026-10-05',
  perfilIof: 'pj',
  terms: { ...EXAMPLE_TERMS, ...terms },
  iofTable: SPEC_IOF,
  titulos: [
    { tipo: 'duplicata_mercantil', vencimento: '2026-11-04', valorFaceCentavos: 1_000_000n, feriadosLocais: new Set() },
    { tipo: 'duplicata_servico', vencimento: '2026-11-20', valorFaceCentavos: 2_500_000n, feriadosLocais: new Set() },
    { tipo: 'cheque', vencimento: '2026-12-04', valorFaceCentavos: 1_500_000n, feriadosLocais: new Set() },
  ],
})
