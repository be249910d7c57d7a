// How the CNAB fuzz suites break a bank's file: cut, widened, overwritten with digits, letters, controls and dates
// no calendar has, its line ends mixed, its lines repeated (test/fuzz/cnab.fuzz.ts reads such files, retornos.fuzz.ts
// sends them to the service).
import fc from 'fast-check'

export type Damage = { at: number, kind: 'cut' | 'widen' | 'overwrite' | 'cr' | 'lf' | 'repeat' | 'date', text: string }
export const damage: fc.Arbitrary<Damage> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('cut', 'widen', 'overwrite', 'cr', 'lf', 'repeat', 'date'),
  text: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('\u0000', '\r', 'é', '99999999999999', '31022026', '        ', 'X')),
}) as fc.Arbitrary<Damage>

export function broken(file: string, ds: readonly Damage[]): string {
  let f = file
  for (const d of ds) {
    const at = f.length ? d.at % f.length : 0
    if (d.kind === 'cut') f = f.slice(0, at) + f.slice(at + 1 + (d.text.length % 300))
    if (d.kind === 'widen') f = f.slice(0, at) + d.text + f.slice(at)
    if (d.kind === 'overwrite') f = f.slice(0, at) + d.text + f.slice(at + d.text.length)
    if (d.kind === 'cr') f = f.replace(/\r\n/, '\n').slice(0, at) + '\r' + f.slice(at)
    if (d.kind === 'lf') f = f.slice(0, at) + '\n' + f.slice(at)
    if (d.kind === 'repeat') {
      const lines = f.split('\r\n')
      const i = at % (lines.length || 1)
      lines.splice(i, 0, lines[i] ?? '')
      f = lines.join('\r\n')
    }
    if (d.kind === 'date') f = f.slice(0, at) + '31022026' + f.slice(at + 8)
  }
  return f
}
