// The one HTML layout every page is rendered into: header with navigation, the page, footer.
// No inline script or style anywhere: the stylesheet and the script are files (see assets.ts).
import { html, type Html } from '../../platform/lib/html.ts'
import type { Assets } from './assets.ts'
import { PAGES } from './page-list.ts'
import type { Empresa } from './settings.ts'

export const SITE_NAME = 'Plataforma Factoring'

export type LayoutInput = {
  title: string
  description: string
  /** The page's path: marks the current navigation item and names the Markdown twin. */
  path: string
  body: Html
  /** The script is loaded on every page; it acts only where it finds something to enhance. */
  assets: Pick<Assets, 'css' | 'js' | 'icon'>
  /** A private page (a person's account): kept out of search engines, and it has no Markdown twin. */
  private?: boolean
  /**
   * The back office's header and navigation (src/modules/backoffice/layout.ts): the page is then the app's, full
   * width, in place of the public site's header and footer.
   */
  shell?: Html | undefined
  /** The company that runs the service (EMPRESA_*), named in the public pages' footer. */
  empresa?: Empresa | undefined
}

/** The layout of a page rendered elsewhere than the site's own routes, with the site's assets filled in. */
export type SiteLayout = (p: Omit<LayoutInput, 'assets'>) => string

/** The page's Markdown twin, for agents (private pages have none). */
const twinLink = (path: string) => html`<link rel="alternate" type="text/markdown" href="${path}" title="Esta página em Markdown">\n`

/** Where a customer's people sign in (the account module's /conta/entrar): on every public page's header. */
export const SIGN_IN_PATH = '/conta/entrar'

export function layout(p: LayoutInput): Html {
  const title = p.path === '/' ? `${SITE_NAME}: factoring como serviço` : `${p.title} · ${SITE_NAME}`
  const nav = PAGES.map((n) => html`<li><a href="${n.path}"${n.path === p.path && html` aria-current="page"`}>${n.label}</a></li>`)
  const signIn = html`<li><a class="entrar" href="${SIGN_IN_PATH}"${p.path === SIGN_IN_PATH && html` aria-current="page"`}>Entrar</a></li>`
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<meta name="description" content="${p.description}">
${p.private && html`<meta name="robots" content="noindex, nofollow">\n`}<link rel="icon" href="${p.assets.icon}" type="image/svg+xml">
<link rel="stylesheet" href="${p.assets.css}">
${!p.private && twinLink(p.path)}<script type="module" src="${p.assets.js}"></script>
</head>
${p.shell ? appBody(p.shell, p.body) : html`<body>
<a class="pular" href="#conteudo">Pular para o conteúdo</a>
<header class="topo">
<div class="largura">
<a class="marca" href="/"><img src="${p.assets.icon}" alt="" width="28" height="28"><span>${SITE_NAME}</span></a>
<nav aria-label="Principal"><ul>${nav}${signIn}</ul></nav>
</div>
</header>
<main id="conteudo" tabindex="-1">
<div class="largura">
${p.body}
</div>
</main>
<footer class="rodape">
<div class="largura">
<p>${SITE_NAME} — factoring como serviço. Credenciais da API somente pelo canal comercial: <a href="/contato">fale conosco</a>.</p>
${p.empresa && html`<p id="empresa">Operada por <span id="empresa-nome">${p.empresa.nome}</span>, CNPJ <span id="empresa-cnpj">${p.empresa.cnpj}</span>, \
<span id="empresa-endereco">${p.empresa.endereco}</span>.</p>\n`}
<p>Para agentes: cada página também em Markdown (<code>Accept: text/markdown</code>) · <a href="/llms.txt">llms.txt</a> · \
<a href="/openapi.json">openapi.json</a> · <a href="/status">status</a> · <a href="/privacidade">privacidade</a></p>
</div>
</footer>
</body>`}
</html>
`
}

/** The back office's body: its shell (header and navigation), then the page, the whole width of the screen. */
function appBody(shell: Html, body: Html): Html {
  return html`<body class="app">
<a class="pular" href="#conteudo">Pular para o conteúdo</a>
${shell}
<main id="conteudo" tabindex="-1" class="app-conteudo">
${body}
</main>
</body>`
}
