// The mcp module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { mcpModule } from './module.ts'
