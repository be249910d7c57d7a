// The contact form's logic without HTTP: validate a body as the API does, route its subject, store it.
// The API route and the website's no-JavaScript form handler both call it, so they cannot drift apart.
import { Ajv } from 'ajv'
import { addEmailFormat, AJV_OPTIONS, fromAjv, type AjvError, type ValidationItem } from '../http/validation-errors.ts'
import { ContatoIn, type ContatoInT } from './schemas.ts'
import type { ContactStore } from './store.ts'
import type { SubjectRouter } from './subjects.ts'

export type Accepted = { protocolo: string, destino: string, mensagem: string, novo: boolean }
export type Validated = { ok: true, value: ContatoInT } | { ok: false, errors: ValidationItem[] }

export type ContactService = {
  readonly subjects: SubjectRouter
  /** The API's own validation (same schema, same options, same 422 items), for bodies not parsed by it. */
  validate(input: unknown): Validated
  /** Stores the contact; rejects when the database cannot take it (the caller answers 503). */
  submit(value: ContatoInT, meta: { requestId: string, ip: string }): Promise<Accepted>
}

export function confirmation(protocolo: string): string {
  return `Recebemos sua mensagem. Guarde o protocolo ${protocolo}: responderemos pelo e-mail informado.`
}

export function makeContactService(store: ContactStore, subjects: SubjectRouter): ContactService {
  const ajv = new Ajv({ ...AJV_OPTIONS })
  addEmailFormat(ajv)
  const check = ajv.compile(ContatoIn)
  const order = Object.keys(ContatoIn.properties)
  return {
    subjects,
    validate(input) {
      const copy = input !== null && typeof input === 'object' && !Array.isArray(input) ? { ...input } : input
      if (check(copy)) return { ok: true, value: copy as ContatoInT }
      return { ok: false, errors: fromAjv((check.errors ?? []) as AjvError[], 'body', input, order) }
    },
    async submit(value, meta) {
      const subject = subjects.route(value.assunto)
      const stored = await store.submit({
        fields: { nome: value.nome, email: value.email, mensagem: value.mensagem, empresa: value.empresa ?? '', telefone: value.telefone ?? '', site: value.site ?? '' },
        subject,
        ...meta,
      })
      return { ...stored, mensagem: confirmation(stored.protocolo) }
    },
  }
}
