// The loader hook of record-imports.mjs (it runs on the loader's thread).
import { appendFileSync } from 'node:fs'

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  if (process.env.IMPORT_LOG) appendFileSync(process.env.IMPORT_LOG, `${resolved.url}\n`)
  return resolved
}
