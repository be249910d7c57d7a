import { UNSAFE_NAME_CHARACTER } from '../lib/chosen-name.ts'
import type { Clock } from '../lib/clock.ts'
import type { Config } from '../config.ts'
import type { Database } from '../db/database.ts'

export type Output = { log(line: string): void, error(line: string): void }

/**
 * What every command gets: a migrated database on demand, where to print, the time, the config, and the origin of
 * the links it prints or e-mails (after `open`: PUBLIC_URL, else the running server's own address, else it throws).
 */
export type CommandContext = { open: () => Promise<Database>, out: Output, clock: Clock, config: Config, publicUrl: () => string }

/** Bad words on the command line: the CLI prints the message and the help, and exits 2. */
export class UsageError extends Error {}

export function parseOrUsage<T>(parse: () => T): T {
  try {
    return parse()
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
}

// What the CLI prints comes partly from customers (token names, SMTP servers' errors, rows written before names
// were checked): a character that acts on a terminal (ESC and OSC sequences recolour, retitle, write the
// clipboard; CR and line breaks forge rows; bidi controls reorder what is read) is printed as the visible text
// `\uXXXX` instead. That is also JSON's escape, so a --json line stays valid JSON.
const UNSAFE = new RegExp(UNSAFE_NAME_CHARACTER.source, 'gu')
const visible = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`

/** A value inside a line (a name, a cell of a table): tabs and line breaks escaped too, so it cannot make columns or rows. */
export function shown(value: string): string {
  return value.replace(UNSAFE, visible)
}

/** A table's row: each cell shown, the cells joined by tabs. */
export function tableRow(cells: readonly string[]): string {
  return cells.map(shown).join('\t')
}

/**
 * Every line the CLI prints goes through this: whatever a command forgot to pass through `shown`, nothing in it
 * reaches the terminal as a control, but the tabs and line breaks the CLI lays its own output out with.
 */
export function inertOutput(out: Output): Output {
  const inert = (line: string) => line.replace(UNSAFE, (c) => (c === '\t' || c === '\n' ? c : visible(c)))
  return { log: (line) => out.log(inert(line)), error: (line) => out.error(inert(line)) }
}
