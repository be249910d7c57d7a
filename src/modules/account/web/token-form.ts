// The form that makes a token: its fields read and checked here, each refusal in words next to its field. The
// store checks the same rules again (src/modules/credentials/tokens/store.ts); this only gives a person clear messages first.
import { isScope, type Scope } from '../../credentials/index.ts'
import { isJwkThumbprint } from '../../credentials/index.ts'
import { TOKEN_NAME_MAX } from '../../credentials/index.ts'
import { nameProblem, withoutUnsafe, type NameProblem } from '../../../platform/lib/chosen-name.ts'
import { field } from './form-body.ts'

export const TOKEN_FIELDS = { nome: 'nome', escopos: 'escopos', dias: 'validade_dias', dpopJkt: 'dpop_jkt' } as const

/**
 * The form's Idempotency-Key, a hidden field with a fresh UUID each time the form is shown: a browser cannot send
 * the header, and a form posted twice (a double click, a resubmitted page) must make one token.
 */
export const TOKEN_KEY_FIELD = 'chave_idempotencia'

/** The validities offered, in days; the store's limit (TOKEN_MAX_DAYS, 366) is the longest. */
export const TOKEN_VALIDITY_DAYS = [7, 30, 90, 180, 366] as const

const NAME_MESSAGES: Record<NameProblem, string> = {
  vazio: 'Dê um nome ao token.',
  longo: `O nome pode ter no máximo ${TOKEN_NAME_MAX} caracteres.`,
  controle: 'O nome não pode ter caracteres de controle, quebras de linha, tabulações nem marcas de direção do texto.',
}

export type TokenFormValues = { nome: string, escopos: string[], dias: string, dpopJkt: string }
export type TokenFormErrors = Partial<Record<'nome' | 'escopos' | 'dias' | 'dpopJkt', string>>

export type TokenRequest = { nome: string, escopos: Scope[], dias: number, dpopJkt: string | null }

export function readTokenForm(fields: URLSearchParams): { values: TokenFormValues, errors: TokenFormErrors, request?: TokenRequest } {
  const values: TokenFormValues = {
    nome: field(fields, TOKEN_FIELDS.nome, 400),
    escopos: fields.getAll(TOKEN_FIELDS.escopos).slice(0, 10),
    dias: field(fields, TOKEN_FIELDS.dias, 10),
    dpopJkt: field(fields, TOKEN_FIELDS.dpopJkt, 200).trim(),
  }
  const errors: TokenFormErrors = {}
  const nome = values.nome.trim()
  const bad = nameProblem(nome, TOKEN_NAME_MAX)
  if (bad) errors.nome = NAME_MESSAGES[bad]
  const escopos = [...new Set(values.escopos)]
  if (!escopos.length) errors.escopos = 'Escolha pelo menos um escopo.'
  else if (!escopos.every(isScope)) errors.escopos = 'Escolha escopos da lista.'
  const dias = Number(values.dias)
  if (!(TOKEN_VALIDITY_DAYS as readonly number[]).includes(dias)) errors.dias = 'Escolha uma das validades da lista.'
  if (values.dpopJkt && !isJwkThumbprint(values.dpopJkt)) {
    errors.dpopJkt = 'A chave DPoP deve ser a impressão digital RFC 7638 da chave pública: 43 caracteres base64url (SHA-256).'
  }
  if (Object.keys(errors).length) return { values: { ...values, nome: withoutUnsafe(values.nome) }, errors }
  return { values, errors, request: { nome, escopos: escopos as Scope[], dias, dpopJkt: values.dpopJkt || null } }
}
