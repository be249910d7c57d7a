// The one way pages are built: a tagged template, html`<p>${value}</p>`, in which every value is escaped unless it
// is Html already (another template's result, or raw() of markup this code made). Forgetting to escape is then not
// possible, only choosing not to, in one greppable word. null, undefined and false render as nothing (so
// `cond && html`…`` works), numbers as their text, arrays as their items joined.
//
// Escaping is right only where the value lands: text, or an attribute value in quotes. So each template's static
// parts are read once (per call site) for where each hole is, and the two places escaping cannot make safe are
// refused: an unquoted attribute value (`<a href=${x}>`, a mistake in the code: it throws on first use), and text
// between a tag's attributes (`<input ${x}>`, where a word like `onfocus=…` needs no quote to become an attribute:
// only Html, or nothing, is let in there). A value that starts an href, src or action is a link: a scheme other than
// http, https or mailto (javascript:, data:) is replaced by `#`, as the Markdown renderer does.
import { escapeHtml } from './markup-escape.ts'

class Html {
  readonly #markup: string
  constructor(markup: string) {
    this.#markup = markup
  }

  toString(): string {
    return this.#markup
  }
}

export type { Html }

export type HtmlValue = Html | string | number | false | null | undefined | readonly HtmlValue[]

/** Markup the code itself produced (the Markdown renderer's output, an inline SVG): passed through as is. */
export function raw(markup: string): Html {
  return new Html(markup)
}

/** Items joined by a separator (text, escaped like any value): the rows of a table, one per line. */
export function join(items: readonly HtmlValue[], separator: string): Html {
  return new Html(items.map((item) => fill(item, 'text')).join(escapeHtml(separator)))
}

type Hole = 'text' | 'value' | 'link' | 'tag'
type State = 'text' | 'tag' | '"' | "'"

const holesOf = new WeakMap<TemplateStringsArray, Hole[]>()

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let holes = holesOf.get(strings)
  if (!holes) holesOf.set(strings, holes = readHoles(strings))
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += fill(values[i], holes[i]!) + strings[i + 1]!
  return new Html(out)
}

function fill(v: HtmlValue, hole: Hole): string {
  if (v instanceof Html) return v.toString()
  if (v === null || v === undefined || v === false || v === '') return ''
  if (Array.isArray(v)) return v.map((item: HtmlValue) => fill(item, hole)).join('')
  if (hole === 'tag') throw new TypeError('html: only Html may stand between a tag\'s attributes (an attribute made of text could be any attribute)')
  const text = String(v)
  return escapeHtml(hole === 'link' && !SAFE_LINK.test(text) ? '#' : text)
}

// A link whose scheme is one of these, or that has none before its first `/`, `?` or `#` (a path, a query, a fragment).
const SAFE_LINK = /^(?:https?:|mailto:|[^:]*(?:[/?#]|$))/i
const LINK_ATTRIBUTE = /(?:^|\s)(?:href|src|action|formaction)\s*=\s*["']$/i

/** Where each hole of a template stands, read from its static parts as an HTML tokenizer would walk them. */
function readHoles(strings: TemplateStringsArray): Hole[] {
  const holes: Hole[] = []
  // A template of attributes alone (` title="${t}"`, to put in a tag) starts inside a tag.
  let state: State = /^\s*[a-z][\w:-]*=/i.test(strings[0]!) ? 'tag' : 'text'
  for (let i = 0; i < strings.length - 1; i++) {
    const part = strings[i]!
    for (let j = 0; j < part.length; j++) state = next(state, part, j)
    if (state === 'tag' && /=\s*$/.test(part)) throw new SyntaxError(`html: quote the attribute value after ${JSON.stringify(part.slice(-30))}`)
    if (state === 'text') holes.push('text')
    else if (state === 'tag') holes.push('tag')
    else holes.push(LINK_ATTRIBUTE.test(part) ? 'link' : 'value')
  }
  return holes
}

function next(state: State, s: string, at: number): State {
  const c = s[at]
  if (state === 'text') return c === '<' && /[a-z/!]/i.test(s[at + 1] ?? '') ? 'tag' : 'text'
  if (state === 'tag') return c === '>' ? 'text' : c === '"' || c === "'" ? c : 'tag'
  return c === state ? 'tag' : state
}
