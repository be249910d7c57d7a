// The MCP module: the server at /api/mcp for agents. It owns no tool: each module contributes its tools (each
// answering as one of its REST routes does) and its resources through the `mcp` point (tool.ts), read here once
// every module's setup ran.
import type { FastifyInstance } from 'fastify'
import { defineModule } from '../../platform/module.ts'
import { mcpPathItem } from './document.ts'
import { MCP_PATH, mcpRoutes } from './routes.ts'
import type { Resource, Tool } from './tool.ts'
import { describedWithScope } from './twins.ts'

export const mcpModule = defineModule({
  name: 'mcp',
  setup({ config, db, clock, contributions }) {
    let read: { tools: Tool[], resources: Resource[], summaries: string[] } | undefined
    const contributed = () => read ??= (() => {
      const parts = contributions('mcp')
      const tools: Tool[] = parts.flatMap((p) => p.tools ?? []).map((t) => ({ ...t, description: describedWithScope(t) }))
      const resources: Resource[] = parts.flatMap((p) => p.resources ?? [])
      const summaries = parts.flatMap((p) => p.resourcesSummary ?? [])
      return { tools, resources, summaries }
    })()
    return {
      customerApiPaths: () => {
        const { tools, summaries } = contributed()
        return { [MCP_PATH.slice('/api'.length)]: mcpPathItem(tools, summaries) }
      },
      routes: async (app: FastifyInstance) => {
        const { tools, resources } = contributed()
        await mcpRoutes({
          db, clock, publicUrl: config.publicUrl, production: config.ambiente === 'producao', budget: config.rateLimits.leitura,
          version: config.build.versao, tools, resources,
        })(app)
      },
    }
  },
})
