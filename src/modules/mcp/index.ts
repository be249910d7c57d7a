// The mcp module's public entry: what other modules and the composition (app.ts, cli/) may use of it. Modules
// give the server their tools and resources through the `mcp` contribution point (tool.ts).
export { toolSchema } from './json-schema.ts'
export type { JsonSchema } from './json-schema.ts'
export { mcpModule } from './module.ts'
export { ok } from './tool.ts'
export { PAGE_ARGS, pageOfArgs } from './page-args.ts'
export type { McpContribution, Outcome, Resource, Tool, ToolCall } from './tool.ts'
export { publicTwin, routeTwin } from './twins.ts'
