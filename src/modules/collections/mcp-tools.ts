// The collections module's MCP tools: read what went to the banks (the remessas and what each carried, a charge's
// instructions and the bank's answers) and what came back (the retornos and what became of each line), and the
// buy-backs, each as its REST twin answers and with its scope (`cobranca`). None makes a remessa, asks an
// instruction, sends a retorno or makes a buy-back: each moves money or what a sacado owes, and stays with people and
// integrations, through the API and /conta, as the operations' money steps do.
import { Type } from 'typebox'
import type { Database } from '../../platform/db/database.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { ok, PAGE_ARGS, pageOfArgs, routeTwin, toolSchema, type Tool } from '../mcp/index.ts'
import { getCharge } from './charges/store.ts'
import { INSTRUCTION_ROUTES, InstrucaoOut } from './instructions/definitions.ts'
import { instructionsOf } from './instructions/store.ts'
import { instructionView } from './instructions/views.ts'
import { REMESSA_ROUTES, RemessaOut } from './remessas/definitions.ts'
import { getRemessa, itemsOf, listRemessas } from './remessas/store.ts'
import { remessaSummaryView, remessaView } from './remessas/views.ts'
import { RECOMPRA_ROUTES, RecompraOut } from './recompras/definitions.ts'
import { getRecompra, listRecompras } from './recompras/store.ts'
import { recompraView } from './recompras/views.ts'
import { RETORNO_ROUTES, RetornoOut } from './retornos/definitions.ts'
import { getRetorno, listRetornos } from './retornos/store.ts'
import { retornoView } from './retornos/views.ts'
import { pageFrom } from '../../platform/http/api-schemas.ts'

const Id = (what: string) => toolSchema({
  type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', format: 'uuid', description: what } },
})

export function collectionTools(db: Database): Tool[] {
  const listed = REMESSA_ROUTES.listar.schema.response[200]
  return [
    {
      name: 'listar_remessas', title: 'Listar remessas', twin: routeTwin(REMESSA_ROUTES.listar),
      description: 'As remessas CNAB do cliente, mais novas primeiro (NSA, layout, nome do arquivo, quantidades, valor); filtro `conta_cobranca_id`. '
        + 'Como GET /api/cnab/remessas.',
      input: toolSchema({
        type: 'object', additionalProperties: false, properties: { ...PAGE_ARGS, conta_cobranca_id: { type: 'string', format: 'uuid' } },
      }),
      output: toolSchema(listed),
      run: async (args, call) => {
        const filter = typeof args.conta_cobranca_id === 'string' ? { contaCobrancaId: args.conta_cobranca_id } : {}
        const found = await withTenant(db, call.credential.clienteId, (tx) => listRemessas(tx, filter, pageOfArgs(args)))
        return ok({ itens: found.items.map(remessaSummaryView), proximo: found.next })
      },
    },
    {
      name: 'ler_remessa', title: 'Ler remessa', twin: routeTwin(REMESSA_ROUTES.ler),
      description: 'Uma remessa CNAB: o que levou (cada cobrança ou instrução, na ordem do arquivo), as quantidades e o SHA-256 do arquivo. '
        + 'Como GET /api/cnab/remessas/{id}.',
      input: Id('A remessa.'), output: toolSchema(RemessaOut),
      run: async (args, call) => {
        const found = await withTenant(db, call.credential.clienteId, async (tx) => {
          const remessa = await getRemessa(tx, String(args.id))
          return remessa && { remessa, itens: await itemsOf(tx, remessa.id) }
        })
        return found ? { ok: true, value: remessaView(found.remessa, found.itens), alvoId: found.remessa.id } : { ok: false, detail: 'nao_encontrado' }
      },
    },
    {
      name: 'listar_retornos', title: 'Listar retornos', twin: routeTwin(RETORNO_ROUTES.listar),
      description: 'Os retornos CNAB enviados, mais novos primeiro, cada um com o progresso (aplicadas, ignoradas, pendentes); filtros '
        + '`conta_cobranca_id` e `estado`. Como GET /api/cnab/retornos.',
      input: toolSchema({
        type: 'object', additionalProperties: false,
        properties: { ...PAGE_ARGS, conta_cobranca_id: { type: 'string', format: 'uuid' }, estado: { type: 'string', enum: ['aplicando', 'aplicado'] } },
      }),
      output: toolSchema(RETORNO_ROUTES.listar.schema.response[200]),
      run: async (args, call) => {
        const page = pageOfArgs(args)
        const filter = { ...(typeof args.conta_cobranca_id === 'string' ? { contaCobrancaId: args.conta_cobranca_id } : {}),
          ...(typeof args.estado === 'string' ? { estado: args.estado } : {}) }
        const rows = await withTenant(db, call.credential.clienteId, (tx) => listRetornos(tx, filter, page))
        const found = pageFrom(rows, page.limit)
        return ok({ itens: found.items.map(retornoView), proximo: found.next })
      },
    },
    {
      name: 'ler_retorno', title: 'Ler retorno', twin: routeTwin(RETORNO_ROUTES.ler),
      description: 'Um retorno CNAB e o seu progresso. Como GET /api/cnab/retornos/{id}; as linhas, em GET /api/cnab/retornos/{id}/linhas.',
      input: Id('O retorno.'), output: toolSchema(RetornoOut),
      run: async (args, call) => {
        const found = await withTenant(db, call.credential.clienteId, (tx) => getRetorno(tx, String(args.id)))
        return found ? { ok: true, value: retornoView(found), alvoId: found.id } : { ok: false, detail: 'nao_encontrado' }
      },
    },
    {
      name: 'listar_recompras', title: 'Listar recompras', twin: routeTwin(RECOMPRA_ROUTES.listar),
      description: 'As recompras de títulos pelos cedentes, mais novas primeiro (motivo, forma, valores, estado: aberta, paga ou compensada); '
        + 'filtros `cedente_id` e `estado`. Como GET /api/recompras.',
      input: toolSchema({
        type: 'object', additionalProperties: false,
        properties: { ...PAGE_ARGS, cedente_id: { type: 'string', format: 'uuid' }, estado: { type: 'string', enum: ['aberta', 'paga', 'compensada'] } },
      }),
      output: toolSchema(RECOMPRA_ROUTES.listar.schema.response[200]),
      run: async (args, call) => {
        const page = pageOfArgs(args)
        const filter = { ...(typeof args.cedente_id === 'string' ? { cedenteId: args.cedente_id } : {}),
          ...(typeof args.estado === 'string' ? { estado: args.estado } : {}) }
        const rows = await withTenant(db, call.credential.clienteId, (tx) => listRecompras(tx, filter, page))
        const found = pageFrom(rows, page.limit)
        return ok({ itens: found.items.map(recompraView), proximo: found.next })
      },
    },
    {
      name: 'ler_recompra', title: 'Ler recompra', twin: routeTwin(RECOMPRA_ROUTES.ler),
      description: 'Uma recompra: os títulos, o saldo, os juros e a multa de cada um, o deságio reconhecido, e como foi liquidada. '
        + 'Como GET /api/recompras/{id}.',
      input: Id('A recompra.'), output: toolSchema(RecompraOut),
      run: async (args, call) => {
        const found = await withTenant(db, call.credential.clienteId, (tx) => getRecompra(tx, String(args.id)))
        return found ? { ok: true, value: recompraView(found), alvoId: found.id } : { ok: false, detail: 'nao_encontrado' }
      },
    },
    {
      name: 'listar_instrucoes', title: 'Listar instruções de uma cobrança', twin: routeTwin(INSTRUCTION_ROUTES.listar),
      description: 'As instruções pedidas ao banco para uma cobrança, na ordem pedida, cada uma com o estado (pendente, enviada, confirmada, '
        + 'rejeitada), as tentativas e a resposta do banco. Como GET /api/cobrancas/{id}/instrucoes.',
      input: Id('A cobrança.'), output: toolSchema(Type.Object({ itens: Type.Array(InstrucaoOut) })),
      run: async (args, call) => {
        const id = String(args.id)
        const found = await withTenant(db, call.credential.clienteId, async (tx) => (await getCharge(tx, id)) && instructionsOf(tx, id))
        return found ? { ok: true, value: { itens: found.map(instructionView) }, alvoId: id } : { ok: false, detail: 'nao_encontrado' }
      },
    },
  ]
}
