// The registry's routes as data (issue 34): a duplicata's query asked, its place in the registry read with every
// request and the mirror of what the registry said, and the registradora's callback.
import { Type } from 'typebox'
import { Conflict, guardRefusals, NotFound } from '../../platform/http/api-schemas.ts'
import type { RouteDefinition } from '../../platform/http/route-document.ts'
import { IdempotencyKeyHeader, idempotencyProblems } from '../../platform/idempotency/schemas.ts'

const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const Uuid = Type.String({ format: 'uuid' })
const Instant = Type.String({ format: 'date-time' })
const Params = Type.Object({ id: Type.String() })
const tag = (summary: string, operationId: string) => ({ hide: true, tags: ['titulos'], summary, operationId })

export const PedidoOut = Type.Object({
  id: Uuid,
  tipo: Type.String({ enum: ['consulta', 'cessao', 'pagamento', 'baixa'] }),
  estado: Type.String({ enum: ['pendente', 'processando', 'concluido', 'recusado'], description: '`pendente`: to be sent (again, after a failure: '
    + '`tentativas`, `erro`, `proxima_tentativa_em`); `processando`: taken by the registradora under `protocolo`, its result awaited.' }),
  tentativas: Type.Integer(),
  protocolo: OrNull(Type.String()),
  erro: OrNull(Type.String({ description: 'Why the last try did not go through (the registradora unavailable), or its refusal.' })),
  proxima_tentativa_em: OrNull(Instant),
  resposta: Type.Unknown({ description: 'What the registradora answered last, as it answered it.' }),
  criado_em: Instant,
  concluido_em: OrNull(Instant),
})

const EventoOut = Type.Object({
  id: Uuid, pedido_id: Uuid, tipo: Type.String(), situacao: Type.String({ enum: ['recebido', 'concluido', 'recusado'] }), protocolo: OrNull(Type.String()),
  dados: Type.Unknown({ description: 'The registradora\'s answer.' }), criado_em: Instant,
})

const RegistroOut = Type.Object({
  titulo_id: Uuid,
  registro_estado: Type.String(),
  registro_situacao: OrNull(Type.String()),
  pedidos: Type.Array(PedidoOut, { description: 'Newest first.' }),
  eventos: Type.Array(EventoOut, { description: 'The mirror of what the registry said, oldest first; never changed.' }),
})

export const REGISTRY_ROUTES = {
  consultar: {
    method: 'POST', url: '/api/titulos/:id/registro/consulta', escopo: 'operacoes',
    schema: {
      ...tag('Asks the registry of duplicatas escriturais who holds the duplicata, its liens and its value (answered later: 202)', 'consultarRegistro'),
      headers: IdempotencyKeyHeader, params: Params,
      response: {
        202: PedidoOut, ...guardRefusals('operacoes'), ...NotFound('título'), ...idempotencyProblems,
        ...Conflict('Not a duplicata (titulo_sem_registro, with its `tipo`); a título cancelled, settled, bought back or written off (estado_invalido); '
          + 'the customer\'s CNPJ not recorded (empresa_sem_cnpj); or the key in use. A query already waiting is answered, not sent again.'),
      },
    },
  },
  cessao: {
    method: 'POST', url: '/api/titulos/:id/registro/cessao', escopo: 'operacoes',
    schema: {
      ...tag('Asks again for the registration of an acquired duplicata\'s assignment the registradora refused', 'registrarCessao'),
      headers: IdempotencyKeyHeader, params: Params,
      response: {
        202: PedidoOut, ...guardRefusals('operacoes'), ...NotFound('título'), ...idempotencyProblems,
        ...Conflict('The título is not an acquired duplicata whose assignment was refused (estado_invalido, with its `registro_estado`), or the key '
          + 'is in use.'),
      },
    },
  },
  ler: {
    method: 'GET', url: '/api/titulos/:id/registro', escopo: 'operacoes',
    schema: {
      ...tag('A título\'s place in the registry, its requests to the registradora and the mirror of what the registry said', 'lerRegistro'), params: Params,
      response: { 200: RegistroOut, ...guardRefusals('operacoes'), ...NotFound('título') },
    },
  },
} satisfies Record<string, RouteDefinition>
