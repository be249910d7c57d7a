// Fuzzing both CNAB retorno readers (part of `npm run test:fuzz`, issue 33: "fuzz … both CNAB parsers with hostile
// files (truncated lines, wrong widths, invalid dates, CR/LF mixes, huge files)"): valid files the sandbox bank writes,
// then broken by cutting, widening, overwriting with digits, letters, controls and dates no calendar has, mixing line
// ends, splitting the bytes anywhere and repeating lines. Every file is either read whole (each título's amounts
// non-negative whole centavos) or refused with ArquivoRecusado naming a line of the file: never another error, never
// a file refused after some of its títulos were handed out without the refusal (the caller checks a file whole first).
// The seed is printed; FUZZ_SEED=<seed> replays a failure.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import type { Banco } from '../../src/modules/collections/boleto/bancos.ts'
import { ArquivoRecusado, linhasDe } from '../../src/modules/collections/cnab/linhas.ts'
import { lerRetorno240, type TituloRetornado } from '../../src/modules/collections/cnab/retorno240.ts'
import { lerRetorno400 } from '../../src/modules/collections/cnab/retorno400.ts'
import { retornoSandbox240, type MovimentoSandbox } from '../../src/modules/collections/sandbox/retorno240.ts'
import { retornoSandbox400 } from '../../src/modules/collections/sandbox/retorno400.ts'
import { broken, damage } from './cnab-damage.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 240_400)
const RUNS = Number(process.env.FUZZ_CNAB_RUNS ?? 400)
console.log(`fuzz (cnab): seed ${SEED}, ${RUNS} files (replay with FUZZ_SEED=${SEED})`)

const BASE = { agencia: '1248', conta: '02124', contaDigito: '6', inscricao: '11444777000161', empresa: 'FACTORING EXEMPLO' }
// Each bank's account as its layout holds it: Caixa's código do beneficiário has 6 digits, BB's convênio 7.
const conta = (banco: Banco) => ({ ...BASE, banco, convenio: banco === '104' ? '123456' : '1234567', carteira: banco === '237' ? '09' : '109' })
const movimento = fc.record({
  codigo: fc.constantFrom('02', '03', '06', '09', '17', '28', '44', '50'),
  sequencia: fc.integer({ min: 1, max: 99_999_999 }).map(String),
  seuNumero: fc.string({ maxLength: 10 }).map((s) => s.replace(/[^ -~]/g, 'x')),
  vencimento: fc.integer({ min: 0, max: 3000 }).map((d) => new Date(Date.UTC(2025, 0, 1) + d * 86_400_000).toISOString().slice(0, 10)),
  valorCentavos: fc.bigInt({ min: 1n, max: 9_999_999_999n }),
}) as fc.Arbitrary<MovimentoSandbox>

async function read(banco: Banco, layout: 240 | 400, file: string, cuts: number[]) {
  const bytes = Buffer.from(file, 'latin1')
  async function* chunks() {
    let at = 0
    for (const c of cuts) { const end = Math.min(bytes.length, at + c); yield bytes.subarray(at, end); at = end }
    yield bytes.subarray(at)
  }
  const titulos: TituloRetornado[] = []
  const gen = layout === 240 ? lerRetorno240(banco, linhasDe(chunks())) : lerRetorno400(banco as '237' | '341', linhasDe(chunks()))
  for (let n = await gen.next(); !n.done; n = await gen.next()) titulos.push(n.value)
  return titulos
}

describe('fuzz: the CNAB retorno readers', () => {
  for (const [banco, layout] of [['001', 240], ['033', 240], ['104', 240], ['237', 240], ['341', 240], ['237', 400], ['341', 400]] as const) {
    it(`${banco} ${layout}: a hostile file is read whole or refused naming a line, never another error`, async () => {
      const cuts = fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 6 })
      await fc.assert(fc.asyncProperty(fc.array(movimento, { maxLength: 6 }), fc.array(damage, { maxLength: 4 }), cuts, async (movimentos, damages, at) => {
          const file = layout === 240
            ? retornoSandbox240(conta(banco), 1, '2026-12-22', movimentos)
            : retornoSandbox400(conta(banco) as Parameters<typeof retornoSandbox400>[0], 1, '2026-12-22', movimentos)
          const hostile = broken(file, damages)
          try {
            const titulos = await read(banco, layout, hostile, at)
            for (const t of titulos) {
              for (const v of [t.pagoCentavos, t.valorTituloCentavos, t.tarifaCentavos, t.jurosMultaCentavos]) assert.ok(v >= 0n)
              assert.ok(t.linha >= 1)
            }
            if (damages.length === 0) assert.equal(titulos.length, movimentos.length, 'an intact file is read whole')
          } catch (err) {
            assert.ok(err instanceof ArquivoRecusado, `not a refusal: ${(err as Error).stack}`)
            assert.ok(err.linha >= 1 && err.motivo.length > 0)
            assert.ok(damages.length > 0, `an intact file was refused: ${err.message}`)
          }
        }), { seed: SEED, numRuns: Math.ceil(RUNS / 7), endOnFailure: true })
    })
  }
})
