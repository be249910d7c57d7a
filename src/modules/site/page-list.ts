// The site's pages, in the order of the navigation, llms.txt and the sitemap, and the other Markdown sources
// (content/*.md) the site renders: one list, so a new page appears everywhere at once.
import { FORM_PATH } from './contact-form.ts'

export const PAGES = [
  { path: '/', source: 'index', label: 'Início' },
  { path: FORM_PATH, source: 'contato', label: 'Contato' },
  { path: '/status', source: 'status', label: 'Status' },
  { path: '/docs', source: 'docs', label: 'API' },
  { path: '/privacidade', source: 'privacidade', label: 'Privacidade' },
] as const

export type PagePath = (typeof PAGES)[number]['path']

const OTHER_SOURCES = ['404', 'contato-enviado', 'erro'] as const
export const SOURCES = [...PAGES.map((p) => p.source), ...OTHER_SOURCES]
export type SourceName = (typeof SOURCES)[number]

const METHODS = new Map<string, string>(PAGES.map((p) => [p.path, p.path === FORM_PATH ? 'GET, HEAD, POST' : 'GET, HEAD']))

/** The methods a page's path answers (for a 405's Allow), with or without a trailing slash; undefined off the pages. */
export function allowedMethods(path: string): string | undefined {
  return METHODS.get(path.length > 1 ? path.replace(/\/$/, '') : path)
}
