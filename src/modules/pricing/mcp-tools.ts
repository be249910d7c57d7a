// The pricing module's MCP tool: the customer's products as GET /api/produtos lists them, so an agent finds the
// `produto_id` a draft (criar_operacao) or a simulation by product (simular) asks for.
import type { Database } from '../../platform/db/database.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { ok, PAGE_ARGS, pageOfArgs, routeTwin, toolSchema, type Tool } from '../mcp/index.ts'
import { TERMS_ROUTES } from './terms/definitions.ts'
import { listProducts } from './terms/store.ts'
import { productView } from './terms/views.ts'

export function termsTools(db: Database): Tool[] {
  const route = TERMS_ROUTES.listar
  return [{
    name: 'listar_produtos',
    title: 'Listar produtos',
    twin: routeTwin(route),
    description: 'Os produtos (condições de precificação) do cliente, mais novos primeiro, cada um com a sua versão mais recente: '
      + 'base, taxa mensal, ad valorem, tarifas, tarifa de cadastro (`tac_centavos`), dias de float e IOF.',
    input: toolSchema({
      type: 'object', additionalProperties: false, properties: {
        ...PAGE_ARGS,
      },
    }),
    output: toolSchema(route.schema.response[200]),
    run: async (args, call) => {
      const page = pageOfArgs(args)
      const found = await withTenant(db, call.credential.clienteId, (tx) => listProducts(tx, page))
      return ok({ itens: found.items.map(productView), proximo: found.next })
    },
  }]
}
