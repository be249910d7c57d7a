// The PIX BR Code (BCB, Manual de Padrões para Iniciação do Pix, and produto.md §3), as the collecting bank makes it
// for a charge: a dynamic code whose merchant account template (26) names the GUI `br.gov.bcb.pix` and the location
// (25, the URL without its scheme) where the payer's bank reads the PIX Cobrança com vencimento (`cobv`) — value,
// due date, interest, fine and discount live there, so a paid or changed charge changes what the code pays.
// A static code (26/01, a key, and an amount in 54) carries no due date, interest or fine and can be paid twice:
// the service makes one only to check this encoder against the manual's published example, never for a charge.
import { crc16CcittFalse } from './crc16.ts'
import { encodeObject, parseObjects, type DataObject } from './emv.ts'

const GUI = 'br.gov.bcb.pix'
// The manual's character set for names and cities: letters, digits and a few marks, no accents (the payer's app
// shows what the bank's `cobv` says; the code's name is a label).
const PLAIN = /^[A-Za-z0-9 .,\-/&*@$%'()+:]*$/

/** Name and city as the code carries them: accents dropped, other characters a space, cut to the field's length. */
export function plainText(s: string, max: number): string {
  const plain = s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9 .,\-/&*@$%'()+:]/g, ' ').replace(/\s+/g, ' ').trim()
  return plain.slice(0, max).trim()
}

function withCrc(objects: readonly DataObject[]): string {
  const body = `${objects.map(encodeObject).join('')}6304`
  return body + crc16CcittFalse(Buffer.from(body, 'utf8'))
}

function merchant(nome: string, cidade: string): DataObject[] {
  const n = plainText(nome, 25)
  const c = plainText(cidade, 15)
  if (!n || !c || !PLAIN.test(n) || !PLAIN.test(c)) throw new RangeError('a BR Code needs a name and a city in plain letters')
  return [{ id: '58', value: 'BR' }, { id: '59', value: n }, { id: '60', value: c }]
}

export interface DynamicCode {
  /** The `cobv`'s location as the bank returned it, without `https://` (at most 77 characters). */
  location: string
  /** The receiver's name and city (cut to 25 and 15 characters). */
  nome: string
  cidade: string
}

/** A charge's dynamic BR Code: point of initiation 12 (one payment), the location, and txid `***` (the payload's own). */
export function dynamicBrCode(d: DynamicCode): string {
  const location = d.location.replace(/^https:\/\//, '')
  if (location.length === 0 || location.length > 77 || /\s/.test(location)) throw new RangeError('a location is 1 to 77 characters without spaces')
  return withCrc([
    { id: '00', value: '01' },
    { id: '01', value: '12' },
    { id: '26', value: [{ id: '00', value: GUI }, { id: '25', value: location }] },
    { id: '52', value: '0000' },
    { id: '53', value: '986' },
    ...merchant(d.nome, d.cidade),
    { id: '62', value: [{ id: '05', value: '***' }] },
  ])
}

export interface StaticCode { chave: string, nome: string, cidade: string, txid: string, valorCentavos?: number }

/** A static BR Code: for the manual's example only (see above). */
export function staticBrCode(s: StaticCode): string {
  return withCrc([
    { id: '00', value: '01' },
    { id: '26', value: [{ id: '00', value: GUI }, { id: '01', value: s.chave }] },
    { id: '52', value: '0000' },
    { id: '53', value: '986' },
    ...(s.valorCentavos === undefined ? [] : [{ id: '54', value: (s.valorCentavos / 100).toFixed(2) }]),
    ...merchant(s.nome, s.cidade),
    { id: '62', value: [{ id: '05', value: s.txid }] },
  ])
}

export type BrCodeRead =
  | { ok: true, location?: string, chave?: string, nome: string, cidade: string, txid?: string, unico: boolean }
  | { ok: false, motivo: 'crc' | 'formato' | 'nao_pix' }

/** A BR Code read back: its CRC checked first, then the PIX template and the merchant's name and city. */
export function readBrCode(code: string): BrCodeRead {
  if (code.length < 8 || code.slice(-8, -4) !== '6304') return { ok: false, motivo: 'formato' }
  if (crc16CcittFalse(Buffer.from(code.slice(0, -4), 'utf8')) !== code.slice(-4).toUpperCase()) return { ok: false, motivo: 'crc' }
  const top = parseObjects(code)
  if (!top.ok) return { ok: false, motivo: 'formato' }
  const at = (id: string) => top.objects.find((o) => o.id === id)?.value
  if (at('00') !== '01') return { ok: false, motivo: 'formato' }
  const account = at('26')
  const inner = account === undefined ? undefined : parseObjects(account)
  if (!inner?.ok || inner.objects.find((o) => o.id === '00')?.value.toLowerCase() !== GUI) return { ok: false, motivo: 'nao_pix' }
  const sub = (id: string) => inner.objects.find((o) => o.id === id)?.value
  const extra = at('62')
  const extraObjects = extra === undefined ? undefined : parseObjects(extra)
  const txid = extraObjects?.ok ? extraObjects.objects.find((o) => o.id === '05')?.value : undefined
  const location = sub('25')
  const chave = sub('01')
  return {
    ok: true, nome: at('59') ?? '', cidade: at('60') ?? '', unico: at('01') === '12',
    ...(location === undefined ? {} : { location }), ...(chave === undefined ? {} : { chave }), ...(txid === undefined ? {} : { txid }),
  }
}
