// The pages' Markdown sources (content/*.md) and how one source becomes both the Markdown answer and the
// HTML one. A source may hold placeholders:
//   - a line holding only `{{name}}` is a block: a component (the contact form, the live status, the API
//     reference) that gives its own Markdown and its own HTML for that place;
//   - `{{name}}` inside a line is a value (a number, a title), substituted in both.
// The Markdown answer is the source with its placeholders filled: no navigation, no layout.
import { readFile } from 'node:fs/promises'
import { join, type Html } from '../../platform/lib/html.ts'
import { markdownToHtml } from './markdown.ts'

export type Block = { markdown: string, html: Html }

export type Rendered = {
  title: string
  description: string
  markdown: string
  /** The page's body (the layout adds the rest). */
  html: Html
}

const BLOCK_LINE = /^\{\{([a-z0-9_]+)\}\}$/
const VALUE = /\{\{([a-z0-9_]+)\}\}/g

export class MissingPlaceholder extends Error {}

export function renderSource(source: string, values: Record<string, string> = {}, blocks: Record<string, Block> = {}): Rendered {
  const lines = source.replace(/\r\n/g, '\n').split('\n')
  const md: string[] = []
  const html: Html[] = []
  let run: string[] = []
  const flush = () => {
    if (run.length) html.push(markdownToHtml(run.join('\n')))
    run = []
  }
  for (const raw of lines) {
    const block = BLOCK_LINE.exec(raw.trim())
    if (block) {
      const b = blocks[block[1]!]
      if (!b) throw new MissingPlaceholder(`no block "${block[1]}"`)
      flush()
      md.push(b.markdown.replace(/\n+$/, ''))
      html.push(b.html)
      continue
    }
    const line = raw.replace(VALUE, (_m, name: string) => {
      const v = values[name]
      if (v === undefined) throw new MissingPlaceholder(`no value "${name}"`)
      return v
    })
    md.push(line)
    run.push(line)
  }
  flush()
  const markdown = md.join('\n').replace(/\n{3,}/g, '\n\n').replace(/\n*$/, '\n')
  return { title: titleOf(markdown), description: descriptionOf(markdown), markdown, html: join(html, '\n') }
}

function titleOf(markdown: string): string {
  const h1 = /^# (.+)$/m.exec(markdown)
  return h1 ? plain(h1[1]!) : ''
}

/** The first paragraph after the title, as plain text: the page's meta description. */
function descriptionOf(markdown: string): string {
  const afterTitle = markdown.replace(/^[\s\S]*?^# .+$/m, '')
  const para = afterTitle.split(/\n\s*\n/).map((p) => p.trim()).find((p) => p && !/^[#>|`-]/.test(p))
  return para ? plain(para.replace(/\n/g, ' ')).slice(0, 300) : ''
}

/** Markdown inline syntax removed: links keep their text, code and emphasis their content. */
export function plain(s: string): string {
  return s
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
    .trim()
}

const contentDir = new URL('../../../content/', import.meta.url)

export async function readSources(names: string[]): Promise<Map<string, string>> {
  const entries = await Promise.all(names.map(async (n) => [n, await readFile(new URL(`${n}.md`, contentDir), 'utf8')] as const))
  return new Map(entries)
}
