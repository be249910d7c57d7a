// The product's data for the quote scenarios, made through the customers' API as an integration makes it: a
// product on the contract's terms, a cedente, a sacado, and operations of N títulos each (due dates spread over
// five months, the acceptance example's kinds and amounts).
import { randomUUID } from 'node:crypto'

const TERMS = {
  base: 'simples_30', taxa_mensal: '0.035', taxa_ad_valorem: '0.003', tarifa_por_titulo_centavos: 800, tac_centavos: 15000,
  dias_float: { duplicata_mercantil: 2, duplicata_servico: 2, cheque: 2 }, iof: 'calcular',
}

type Call = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>

export function apiCaller(base: string, token: string): Call {
  return async (method, path, body) => {
    const res = await fetch(base + path, {
      method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
    return text ? JSON.parse(text) as Record<string, unknown> : {}
  }
}

/** Today in Brasília plus `days`, as YYYY-MM-DD. */
function day(days: number): string {
  const brasilia = new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000)
  return brasilia.toISOString().slice(0, 10)
}

export type ProductData = { produto: string, cedente: string, sacado: string }

/** A product, a cedente and a sacado of the customer. */
export async function productData(call: Call): Promise<ProductData> {
  const produto = await call('POST', '/api/produtos', { nome: 'Produto do bench', ...TERMS })
  const cedente = await call('POST', '/api/cedentes', { documento: '11.222.333/0001-81', razao_social: 'Cedente do bench Ltda', perfil_iof: 'pj' })
  const sacado = await call('POST', '/api/sacados', { documento: '111.444.777-35', razao_social: 'Sacado do bench', municipio_ibge: '3550308' })
  return { produto: produto.id as string, cedente: cedente.id as string, sacado: sacado.id as string }
}

/** `count` draft operations of `titles` títulos each; answers their ids. */
export async function draftOperations(call: Call, data: ProductData, count: number, titles: number): Promise<string[]> {
  const tipos = ['duplicata_mercantil', 'duplicata_servico', 'cheque']
  const ids: string[] = []
  for (let o = 0; o < count; o++) {
    const titulos = Array.from({ length: titles }, (_, n) => ({
      tipo: tipos[n % 3], numero: `B-${o}-${n}-${randomUUID().slice(0, 6)}`, sacado_id: data.sacado, emissao: day(0), vencimento: day(20 + (n % 150)),
      valor_face_centavos: 1_000_000 + n * 1_250,
    }))
    const op = await call('POST', '/api/operacoes', { cedente_id: data.cedente, produto_id: data.produto, titulos })
    ids.push(op.id as string)
  }
  return ids
}
