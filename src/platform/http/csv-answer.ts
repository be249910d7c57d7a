// A list answered as CSV (issue 32 item 3): asked with Accept: text/csv, streamed batch by batch as the client
// reads (Readable.from pulls the next batch only when the socket has taken the last), so the process's memory
// stays flat however long the list. The first batch is read before the status is sent: a refusal or a database
// failure then still answers as JSON; a failure later can only cut the stream (the client sees it incomplete).
import { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { CSV_BOM, csvRow, type CsvCell } from '../lib/csv.ts'
import { handBackTurn } from './customer-turns.ts'
import { problem } from './problem.ts'

/** Whether the request asks for CSV: text/csv named in Accept and not refused (q=0). */
export function wantsCsv(req: FastifyRequest): boolean {
  return String(req.headers.accept ?? '').split(',').some((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim())
    return type === 'text/csv' && !params.some((p) => /^q=0(?:\.0*)?$/.test(p))
  })
}

export type CsvExport<R> = { filename: string, header: readonly string[], rows: AsyncIterable<R[]>, cells: (row: R) => readonly CsvCell[] }

/**
 * Exports one customer streams at once on this instance. An export gives its customer's turn back once its first
 * batch is read (a slow reader must not hold one of the turns its colleagues' pages need for as long as it reads),
 * so exports are bounded by their own count instead; past it, 429 requisicoes_simultaneas as for any turn.
 */
export const EXPORTS_PER_CUSTOMER = 2
/** The longest an export may stream: past it the answer is cut (a client reading a few bytes a second holds no slot for hours). */
export const EXPORT_MAX_MS = 10 * 60_000

const exporting = new Map<string, number>()
const TOO_MANY = problem('requisicoes_simultaneas', { 'retry-after': '5' })

/** Sends the export of `owner` (its customer): UTF-8 with BOM, `;`, CRLF, a header row, as an attachment named `filename`. */
export async function sendCsv<R>(reply: FastifyReply, e: CsvExport<R>, owner: string): Promise<FastifyReply> {
  const running = exporting.get(owner) ?? 0
  if (running >= EXPORTS_PER_CUSTOMER) throw TOO_MANY
  exporting.set(owner, running + 1)
  let cap: NodeJS.Timeout | undefined
  let ended = false
  const end = () => {
    if (ended) return
    ended = true
    clearTimeout(cap)
    const left = (exporting.get(owner) ?? 1) - 1
    if (left > 0) exporting.set(owner, left)
    else exporting.delete(owner)
  }
  // Listened to before the first batch is read: a client gone during it has closed already, and `close` comes once.
  reply.raw.once('close', end)
  try {
    const it = e.rows[Symbol.asyncIterator]()
    const first = await it.next()
    handBackTurn(reply.request)
    async function* text(): AsyncGenerator<string> {
      yield CSV_BOM + csvRow(e.header)
      let next = first
      while (!next.done) {
        yield next.value.map((r) => csvRow(e.cells(r))).join('')
        next = await it.next()
      }
    }
    const body = Readable.from(text(), { objectMode: false })
    if (ended) body.destroy()
    else {
      cap = setTimeout(() => body.destroy(new Error('export over EXPORT_MAX_MS')), EXPORT_MAX_MS)
      cap.unref()
    }
    return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${e.filename}"`)
      .header('cache-control', 'no-store').header('vary', 'Accept').send(body)
  } catch (err) {
    end()
    throw err
  }
}

/** A filename for an export: the list's name and the day, "operacoes-2026-11-28.csv". */
export const csvFilename = (list: string, day: string): string => `${list}-${day}.csv`
