// The IOF rate in force for a profile on a day, from the dated table shipped as data (produto.md §2.4).

export type PerfilIof = 'pj' | 'pj_simples' | 'pf' | 'isento'

export type IofRate = {
  perfil: Exclude<PerfilIof, 'isento'>
  vigenciaInicio: string
  vigenciaFim: string | null
  taxaDiaria: string
  taxaAdicional: string
  fonte: string
}

/** The limit of face value under which a Simples Nacional company's lower rate applies (R$ 30,000.00). */
export const SIMPLES_LIMIT_CENTAVOS = 3_000_000n

/**
 * The profile whose rates apply: `pj_simples` only for an operation whose total face value is at most the limit
 * (Decreto 6.306/2007 art. 7 § 13), otherwise an ordinary company's.
 */
export function effectiveProfile(perfil: PerfilIof, totalFaceCentavos: bigint): PerfilIof {
  return perfil === 'pj_simples' && totalFaceCentavos > SIMPLES_LIMIT_CENTAVOS ? 'pj' : perfil
}

/** The row in force on `day` for `perfil`, or undefined when the table has none (a gap is refused, never guessed). */
export function rateOn(table: readonly IofRate[], perfil: IofRate['perfil'], day: string): IofRate | undefined {
  return table.find((r) => r.perfil === perfil && r.vigenciaInicio <= day && (r.vigenciaFim === null || day <= r.vigenciaFim))
}
