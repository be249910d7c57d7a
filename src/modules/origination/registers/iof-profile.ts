// A cedente's IOF profile and what each needs (issue 31 item 4): the party it is for (a CNPJ or a CPF), the
// Simples Nacional declaration behind `pj_simples`'s lower rate, and the reasons an `isento` may give, each with
// its legal basis (Decreto 6.306/2007, the IOF regulation). One list: the API's enum, the back office's select and
// the customers' docs (content/docs.md) read it; the database's CHECK (0028_perfil_iof.sql) repeats its codes, and a
// test stores each code and finds each line of the docs.
import type { TipoPessoa } from '../documento.ts'

export const PERFIS_IOF = ['pj', 'pj_simples', 'pf', 'isento'] as const
export type PerfilIof = typeof PERFIS_IOF[number]

/** The document each profile is for: a company's CNPJ, a person's CPF; `isento` either (a cooperative, an embassy, a person). */
export const PARTY_OF_PROFILE: Record<PerfilIof, TipoPessoa | null> = { pj: 'pj', pj_simples: 'pj', pf: 'pf', isento: null }

/**
 * Why a cedente owes no IOF on its operations. The buyer's kind first (the IOF on credit reaches factoring, art. 2º,
 * I, b, not a FIDC's or a securitizadora's acquisition), then the cases of arts. 8 (rate zero) and 9 (exemption)
 * that fall on the party taking the credit, which in an assignment is the cedente. The rest of those articles name
 * lenders or programmes (BNDES, FINAME, FIES…) that a receivables purchase is not.
 */
export const MOTIVOS_ISENCAO = [
  {
    codigo: 'comprador_fidc', rotulo: 'O comprador é um FIDC',
    base: 'Decreto 6.306/2007, art. 2º, I, b: o IOF-crédito alcança o factoring, não a aquisição por FIDC',
  },
  {
    codigo: 'comprador_securitizadora', rotulo: 'O comprador é uma securitizadora',
    base: 'Decreto 6.306/2007, art. 2º, I, b: o IOF-crédito alcança o factoring, não a aquisição por securitizadora',
  },
  { codigo: 'cooperativa', rotulo: 'O cedente é uma cooperativa', base: 'Decreto 6.306/2007, art. 8º, I (alíquota zero)' },
  {
    codigo: 'exportacao', rotulo: 'Operação de exportação, de amparo à produção ou de estímulo à exportação',
    base: 'Decreto 6.306/2007, art. 8º, III (alíquota zero)',
  },
  { codigo: 'rural', rotulo: 'Operação rural: investimento, custeio ou comercialização', base: 'Decreto 6.306/2007, art. 8º, IV (alíquota zero)' },
  { codigo: 'fins_habitacionais', rotulo: 'Operação para fins habitacionais', base: 'Decreto 6.306/2007, art. 9º, I (isenção)' },
  { codigo: 'itaipu', rotulo: 'O cedente é a entidade binacional Itaipu', base: 'Decreto 6.306/2007, art. 9º, V (isenção)' },
  {
    codigo: 'missao_diplomatica', rotulo: 'O cedente é missão diplomática ou repartição consular de carreira',
    base: 'Decreto 6.306/2007, art. 9º, VIII (isenção)',
  },
] as const

export type MotivoIsencao = typeof MOTIVOS_ISENCAO[number]['codigo']
export const CODIGOS_MOTIVO_ISENCAO: readonly MotivoIsencao[] = MOTIVOS_ISENCAO.map((m) => m.codigo)

/** The Simples Nacional began on 1 July 2007 (LC 123/2006, art. 88): no company declared itself optante before. */
export const SIMPLES_NACIONAL_DESDE = '2007-07-01'

/** The cedente's declaration that it is optante do Simples Nacional: the day it declared it, the signed document's SHA-256. */
export type DeclaracaoSimples = { data: string, sha256: string }
