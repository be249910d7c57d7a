// A credentialed route as data (method, path, scope, the schemas it validates and serializes with), and its
// operation in the customers' OpenAPI document (GET /api/conta/openapi.json): made from the same definition the
// route is registered with, so the two cannot disagree. Every module that serves customers' routes gives its
// definitions' path items to that document (ModuleParts.customerApiPaths).
type Schema = Record<string, unknown>

export type RouteDefinition = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  url: string
  /** The scope the route needs; undefined for one any credential reaches. */
  escopo: string | undefined
  /** The route changes nothing although its method is not GET (a simulation): a role that only reads may call it. */
  somenteLeitura?: boolean
  schema: Record<string, unknown>
}

/** Path items under /api (`/conta/tokens/{id}`), one operation per definition. */
export function pathItems(definitions: readonly RouteDefinition[]): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const { method, url, escopo, schema } of definitions) {
    type Parts = Schema & { response: Record<string, Schema>, params?: Schema, querystring?: Schema, headers?: Schema, body?: Schema }
    const { response, params, querystring, headers, body, hide: _hide, ...rest } = schema as unknown as Parts
    const path = url.slice('/api'.length).replace(/:(\w+)/g, '{$1}')
    const operations = (paths[path] ??= {})
    operations[method.toLowerCase()] = {
      ...rest,
      ...(escopo ? { description: `${(rest.description as string | undefined) ?? ''} Needs the scope \`${escopo}\`.`.trim() } : {}),
      parameters: [...parameters(params, 'path'), ...parameters(querystring, 'query'), ...parameters(headers, 'header')],
      ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: plain(body) } } } } : {}),
      responses: Object.fromEntries(Object.entries(response).map(([status, answer]) => [status, responseOf(answer)])),
    }
  }
  return paths
}

function parameters(schema: Schema | undefined, where: 'path' | 'query' | 'header'): Schema[] {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>
  const required = new Set((schema?.required ?? []) as string[])
  return Object.entries(properties).map(([name, s]) => ({
    name, in: where, required: where === 'path' || required.has(name), schema: plain(s), ...(s.description ? { description: s.description } : {}),
  }))
}

function responseOf(body: Schema): Schema {
  const description = (body.description as string | undefined) ?? 'OK'
  if (body.type === 'null') return { description }
  // A document answered in the media types it names (HTML, Markdown), not JSON.
  const media = body['x-media-types'] as string[] | undefined
  if (media) return { description, content: Object.fromEntries(media.map((m) => [m, { schema: { type: 'string' } }])) }
  // A list answered as JSON, or as CSV with Accept: text/csv (issue 32 item 3).
  if (body['x-also-csv']) return { description, content: { 'application/json': { schema: plain(body) }, 'text/csv': { schema: { type: 'string' } } } }
  return { description, content: { 'application/json': { schema: plain(body) } } }
}

/** The schema as JSON (TypeBox marks its objects with symbols, which JSON leaves out). */
function plain(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema)) as Schema
}
