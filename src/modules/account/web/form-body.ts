// The web app's forms arrive URL-encoded (the app's one body parser keeps any non-JSON body as text).
import { NonJsonBody } from '../../../platform/http/request-body.ts'

/** The fields of a URL-encoded form post; null for a body of any other kind (JSON, plain text, none). */
export function formFields(body: unknown): URLSearchParams | null {
  if (!(body instanceof NonJsonBody)) return null
  if (body.contentType.split(';')[0]!.trim().toLowerCase() !== 'application/x-www-form-urlencoded') return null
  return new URLSearchParams(body.text)
}

/** One field as text, cut to `max` characters (a longer value is someone else's, never a person's typing). */
export function field(fields: URLSearchParams, name: string, max = 1024): string {
  return (fields.get(name) ?? '').slice(0, max)
}
