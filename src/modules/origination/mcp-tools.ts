// The origination module's MCP tools: the customer's cedentes and sacados, listed as GET /api/cedentes and
// /api/sacados list them (a document finds one), so an agent can draft an operation for them.
import { Type } from 'typebox'
import type { Database } from '../../platform/db/database.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { ok, PAGE_ARGS, pageOfArgs, routeTwin, toolSchema, type Tool } from '../mcp/index.ts'
import { parseDocumento } from './documento.ts'
import { partyRoutes } from './registers/definitions.ts'
import { CedenteOut, SacadoOut } from './registers/schemas.ts'
import { partyPage } from './registers/lists.ts'
import type { PartyFilter } from './registers/store.ts'
import { partyView } from './registers/views.ts'

export function registerTools(db: Database): Tool[] {
  return (['cedente', 'sacado'] as const).map((kind): Tool => {
    const route = partyRoutes(kind).listar
    return {
      name: kind === 'cedente' ? 'listar_cedentes' : 'listar_sacados',
      title: kind === 'cedente' ? 'Listar cedentes' : 'Listar sacados',
      twin: routeTwin(route),
      description: `Os ${kind}s do cliente, mais novos primeiro, com limite e exposição; \`documento\` (CPF ou CNPJ, com ou sem pontuação) encontra um.`,
      input: toolSchema({
        type: 'object', additionalProperties: false, properties: {
          ...PAGE_ARGS,
          documento: { type: 'string', maxLength: 30 }, estado: { type: 'string', enum: ['ativo', 'bloqueado'] },
        },
      }),
      // A page as the tool has always answered it: the route's items and cursor (its search, order and count are the route's alone).
      output: toolSchema(Type.Object({ itens: Type.Array(kind === 'cedente' ? CedenteOut : SacadoOut), proximo: Type.Union([Type.Integer(), Type.Null()]) })),
      run: async (args, call) => {
        const filter: PartyFilter = typeof args.estado === 'string' ? { estado: args.estado as 'ativo' | 'bloqueado' } : {}
        if (typeof args.documento === 'string') {
          const doc = parseDocumento(args.documento)
          if (typeof doc !== 'object') {
            return { ok: false, detail: [{ type: 'value_error', loc: ['documento'], msg: 'Value error, not a valid CPF or CNPJ', input: args.documento }] }
          }
          filter.documento = doc.documento
        }
        const page = pageOfArgs(args)
        const found = await withTenant(db, call.credential.clienteId, (tx) => partyPage(tx, kind, filter, page))
        return ok({ itens: found.items.map(partyView), proximo: found.next })
      },
    }
  })
}
