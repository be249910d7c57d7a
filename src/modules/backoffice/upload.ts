// A back office form that carries a file (multipart/form-data): the formalization's signed term, a bank's retorno.
// The file is read whole but bounded (past the form's limit it is refused before any request), the text fields
// become the form's fields as a URL-encoded form's would, and the file goes to the API as the body of a request:
// before the form's own (PUT /api/operacoes/{id}/termo, which computes its SHA-256), or as the form's own request
// (POST /api/cnab/retornos, which reads the bank's file) — the back office reads nothing of the file itself.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import multipart from '@fastify/multipart'
import { withoutUnsafe } from '../../platform/lib/chosen-name.ts'
import type { Api, ApiAnswer } from './api.ts'

export type UploadedFile = { field: string, filename: string, type: string, bytes: Buffer, truncated: boolean }
export type Upload = { fields: URLSearchParams, files: Map<string, UploadedFile> }

/** Makes `scoped` (a context of its own) read multipart forms: one file, a few short fields. */
export async function acceptUploads(scoped: FastifyInstance, maxBytes: number): Promise<void> {
  await scoped.register(multipart, {
    throwFileSizeLimit: false, limits: { fileSize: maxBytes, files: 1, fields: 30, fieldSize: 4096, parts: 32, headerPairs: 100 },
  })
}

/**
 * The form's fields and file, when `req` is a multipart form; undefined otherwise (a URL-encoded form is read as
 * before), or when `mayReadFile` refuses the fields that came before the file (the form's CSRF token comes first):
 * a file's megabytes are read only for a form the session itself drew.
 */
export async function readUpload(req: FastifyRequest, mayReadFile: (fieldsSoFar: URLSearchParams) => boolean): Promise<Upload | undefined> {
  if (!req.isMultipart?.()) return undefined
  const fields = new URLSearchParams()
  const files = new Map<string, UploadedFile>()
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        fields.append(part.fieldname, String(part.value))
        continue
      }
      if (!mayReadFile(fields)) return undefined
      const bytes = await part.toBuffer()
      // A file input left empty still sends a part, with no name and no bytes: no file.
      if (bytes.length === 0 && !part.filename) continue
      files.set(part.fieldname, { field: part.fieldname, filename: part.filename, type: part.mimetype, bytes, truncated: part.file.truncated })
      // The form's builder sees that a file came, by its name (what a refused form shows back, too).
      fields.set(part.fieldname, part.filename || 'arquivo')
    }
  } catch {
    // A form cut short or malformed: refused as any form the page cannot read.
    return undefined
  }
  return { fields, files }
}

/** A file's name as the API keeps it: no path, no control or quote characters, at most 200 characters. */
export function keptName(filename: string): string | undefined {
  const base = filename.split(/[\\/]/).pop() ?? ''
  // Characters, not UTF-16 units: a cut through an emoji would leave half of it, which no URL can carry.
  const clean = [...withoutUnsafe(base).trim()].filter((c) => c !== '"' && c !== '\\').slice(0, 200).join('').trim()
  return clean || undefined
}

/** Where an action's file goes before its own request: the form field that holds it and the API path (given the page's id). */
export type UploadTarget = { field: string, url(id: string): string }

/**
 * Sends the form's file first, when the action takes one and one came: undefined when sent (or none), else the
 * refusal to show (a file over the limit is refused here, as the API would, without sending it).
 */
export async function sendFileFirst(api: Api, target: UploadTarget | undefined, id: string, upload: Upload | undefined, csrf: string) {
  const file = target && upload?.files.get(target.field)
  if (!file) return undefined
  const name = keptName(file.filename)
  const answer = await sendFile(api, 'PUT', `${target.url(id)}${name ? `?nome_arquivo=${encodeURIComponent(name)}` : ''}`, file, csrf)
  return answer.status < 300 ? undefined : answer
}

/** `file` as the body of `method url`; a file over the form's limit is refused here, as the API would, without sending it. */
export async function sendFile(api: Api, method: 'PUT' | 'POST', url: string, file: UploadedFile, csrf: string): Promise<ApiAnswer> {
  if (file.truncated) return { status: 413, body: { detail: 'corpo_muito_grande' } }
  return api.upload(method, url, file.bytes, file.type || 'application/octet-stream', csrf)
}
