// A route's definition becomes its operation in the customers' document: path parameters in braces, the query
// and headers as parameters, the body as the request body, each answer's schema, and the scope in words.
import assert from 'node:assert/strict'
import { it } from 'node:test'
import { Type } from 'typebox'
import { pathItems } from '../../../src/platform/http/route-document.ts'

it('a definition is an operation: parameters, request body, answers, and the scope it needs', () => {
  const Params = Type.Object({ id: Type.String({ format: 'uuid', description: 'O id.' }) })
  const Query = Type.Object({ limite: Type.Optional(Type.Integer({ minimum: 1 })) })
  const Body = Type.Object({ razao_social: Type.String() }, { additionalProperties: false })
  const paths = pathItems([
    { method: 'PATCH', url: '/api/cedentes/:id', escopo: 'cadastro', schema: {
      hide: true, operationId: 'alterarCedente', summary: 's', params: Params, querystring: Query, body: Body,
      response: { 200: Type.Object({ id: Type.String() }, { description: 'O cedente.' }), 204: Type.Null({ description: 'Nada.' }) },
    } },
    { method: 'GET', url: '/api/cedentes', escopo: undefined, schema: { operationId: 'listar', response: { 200: Type.Object({}) } } },
  ])
  assert.deepEqual(Object.keys(paths), ['/cedentes/{id}', '/cedentes'])
  const op = paths['/cedentes/{id}']!.patch as Record<string, unknown>
  assert.equal(op.hide, undefined)
  assert.equal(op.description, 'Needs the scope `cadastro`.')
  assert.deepEqual(op.parameters, [
    { name: 'id', in: 'path', required: true, schema: { format: 'uuid', description: 'O id.', type: 'string' }, description: 'O id.' },
    { name: 'limite', in: 'query', required: false, schema: { minimum: 1, type: 'integer' } },
  ])
  assert.deepEqual(op.requestBody, { required: true, content: { 'application/json': { schema: JSON.parse(JSON.stringify(Body)) } } })
  assert.deepEqual(op.responses, {
    200: {
      description: 'O cedente.',
      content: { 'application/json': { schema: { description: 'O cedente.', type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } } },
    },
    204: { description: 'Nada.' },
  })
  assert.equal((paths['/cedentes']!.get as Record<string, unknown>).description, undefined)
})
