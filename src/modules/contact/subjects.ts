// Contact subjects and the mailbox each routes to. Defaults here; SERVICE_CONFIG_FILE may replace the list.
export type Subject = { codigo: string, rotulo: string, email: string }

export const DEFAULT_SUBJECTS: Subject[] = [
  { codigo: 'comercial', rotulo: 'Comercial e contratação', email: 'comercial@factoring.example' },
  { codigo: 'suporte', rotulo: 'Suporte a clientes', email: 'suporte@factoring.example' },
  { codigo: 'financeiro', rotulo: 'Financeiro', email: 'financeiro@factoring.example' },
  { codigo: 'parcerias', rotulo: 'Parcerias', email: 'parcerias@factoring.example' },
  { codigo: 'imprensa', rotulo: 'Imprensa', email: 'imprensa@factoring.example' },
  { codigo: 'privacidade', rotulo: 'Privacidade e dados pessoais (LGPD)', email: 'privacidade@factoring.example' },
  { codigo: 'ouvidoria', rotulo: 'Ouvidoria', email: 'ouvidoria@factoring.example' },
  { codigo: 'geral', rotulo: 'Outros assuntos', email: 'contato@factoring.example' },
]

export const DEFAULT_SUBJECT = 'comercial'
export const FALLBACK_SUBJECT = 'geral'

/** The subject a contact without one goes to: `comercial` when the list has it, else the list's first. */
export function defaultSubjectOf(subjects: Subject[]): Subject | undefined {
  return subjects.find((s) => s.codigo === DEFAULT_SUBJECT) ?? subjects[0]
}

export type SubjectRouter = {
  /** Trims and lower-cases; omitted becomes `comercial`, unknown becomes `geral`. */
  route(assunto: string | undefined): Subject
  list(): Subject[]
}

export function makeSubjectRouter(subjects: Subject[]): SubjectRouter {
  const byCode = new Map(subjects.map((s) => [s.codigo, s]))
  const fallback = byCode.get(FALLBACK_SUBJECT)
  if (!fallback) throw new Error(`the subject list must include "${FALLBACK_SUBJECT}"`)
  return {
    route(assunto) {
      if (assunto === undefined) return defaultSubjectOf(subjects)!
      return byCode.get(assunto.trim().toLowerCase()) ?? fallback
    },
    list: () => subjects,
  }
}
