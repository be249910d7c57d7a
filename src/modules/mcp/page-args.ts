// A list tool's page, as the REST lists take it (`limite` 1–200, default 50; `antes`, the previous page's
// `proximo`), in the JSON Schema of a tool's input and read back from its arguments.
export const PAGE_ARGS = {
  limite: { type: 'integer', minimum: 1, maximum: 200, description: 'Itens por página (padrão 50).' },
  // Bounded as the REST lists bound it: 15 digits, exact as a number and as a bigint parameter.
  antes: { type: 'integer', minimum: 1, maximum: 999_999_999_999_999, description: 'O `proximo` da página anterior.' },
} as const

/** The page a list tool's arguments ask for. */
export function pageOfArgs(args: Record<string, unknown>): { limit: number, before?: number } {
  return { limit: typeof args.limite === 'number' ? args.limite : 50, ...(typeof args.antes === 'number' ? { before: args.antes } : {}) }
}
