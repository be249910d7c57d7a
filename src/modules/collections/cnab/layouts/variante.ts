// A bank's record as FEBRABAN's with some positions laid out otherwise: the bank's manual redefines a block (where
// the account and the nosso número go), and the rest stays as FEBRABAN's. The result is checked like any layout.
import type { Campo, Registro } from '../layout.ts'

export interface Bloco { de: number, ate: number, campos: readonly Campo[] }

/** `base` with each block's positions replaced by the block's fields (blocks in order, not overlapping). */
export function variante(base: Registro, fonte: string, blocos: readonly Bloco[]): Registro {
  let campos = [...base.campos]
  for (const b of blocos) {
    const before = campos.filter((f) => f.ate < b.de)
    const after = campos.filter((f) => f.de > b.ate)
    const cut = campos.filter((f) => !(f.ate < b.de) && !(f.de > b.ate) && (f.de < b.de || f.ate > b.ate))
    if (cut.length) throw new RangeError(`${base.nome}: the block ${b.de}-${b.ate} cuts ${cut.map((f) => `${f.nome} (${f.de}-${f.ate})`).join(', ')}`)
    campos = [...before, ...b.campos, ...after]
  }
  return { ...base, fonte, campos }
}
