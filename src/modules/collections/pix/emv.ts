// EMV QR Code merchant-presented mode (EMV QRCPS-MPM), the BR Code's encoding: a sequence of data objects, each an
// ID of two digits, a length of two digits and that many characters. Templates (26–51 merchant account, 62
// additional data) hold data objects of their own. The length counts characters; the BR Code admits only the
// characters the manual lists, which the builder checks, so characters and bytes agree where it matters.

export interface DataObject { id: string, value: string | readonly DataObject[] }

const ID = /^[0-9]{2}$/

/** One data object encoded, its template's objects within it. */
export function encodeObject(o: DataObject): string {
  if (!ID.test(o.id)) throw new RangeError(`an EMV ID is two digits, not ${JSON.stringify(o.id)}`)
  const value = typeof o.value === 'string' ? o.value : o.value.map(encodeObject).join('')
  if (value.length === 0 || value.length > 99) throw new RangeError(`EMV object ${o.id} holds 1 to 99 characters, not ${value.length}`)
  return `${o.id}${String(value.length).padStart(2, '0')}${value}`
}

export type Parsed = { ok: true, objects: Array<{ id: string, value: string }> } | { ok: false, at: number, motivo: string }

/** A string of data objects read one level deep: each ID with its raw value (a template's value is parsed again). */
export function parseObjects(s: string): Parsed {
  const objects: Array<{ id: string, value: string }> = []
  let at = 0
  while (at < s.length) {
    const id = s.slice(at, at + 2)
    const len = s.slice(at + 2, at + 4)
    if (!ID.test(id) || !/^[0-9]{2}$/.test(len)) return { ok: false, at, motivo: 'id_ou_tamanho' }
    const n = Number(len)
    if (n === 0 || at + 4 + n > s.length) return { ok: false, at, motivo: 'tamanho' }
    objects.push({ id, value: s.slice(at + 4, at + 4 + n) })
    at += 4 + n
  }
  return { ok: true, objects }
}
