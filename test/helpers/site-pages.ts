// The website's pages: their paths, the content/ source each renders, and the status each answers (the site's tests).
export const PAGES: { path: string, source: string, status: number }[] = [
  { path: '/', source: 'index', status: 200 },
  { path: '/contato', source: 'contato', status: 200 },
  { path: '/status', source: 'status', status: 200 },
  { path: '/docs', source: 'docs', status: 200 },
  { path: '/privacidade', source: 'privacidade', status: 200 },
  { path: '/nao-existe/pagina', source: '404', status: 404 },
]
