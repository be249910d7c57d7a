// The site module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { siteModule } from './module.ts'
export { PAGES } from './page-list.ts'
export type { Pages } from './pages.ts'
