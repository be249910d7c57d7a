// End-to-end helpers: the app listening on a free port over a test database, one Debian Chromium per test
// file driven by playwright-core (never a downloaded browser), pages whose console is watched, screenshots
// under test-results/, and an axe-core check run inside the page.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, before } from 'node:test'
import { chromium, type Browser, type BrowserContextOptions, type ConsoleMessage, type Page } from 'playwright-core'
import type { Database } from '../../src/platform/db/database.ts'
import { useTestApp, type SuiteApp } from '../helpers/fixture.ts'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** Why the browser tests cannot run here, or false. .ci/run installs Chromium, so CI always runs them. */
export const noBrowser: string | false = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium)`

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
]

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 })
}

/** One browser for the suite (or file) it is called in: launched before its tests, closed after them. */
export function useBrowser(): { readonly browser: Browser } {
  let browser: Browser | undefined
  if (!noBrowser) {
    before(async () => { browser = await launchBrowser() })
    after(() => browser?.close())
  }
  return {
    get browser() {
      if (!browser) throw new Error('the browser is used before its suite started, or did not launch')
      return browser
    },
  }
}

export type ServerOptions = { contato?: number, env?: Record<string, string>, db?: Database }

/**
 * The app for a suite on 127.0.0.1 and a free port (`base`), with a contact budget of `contato` posts per IP,
 * on `db` or a database of its own; without a browser there is nothing to serve, and nothing is started.
 */
export function useServer(opts: ServerOptions | (() => ServerOptions) = {}): SuiteApp {
  return useTestApp(() => {
    const { contato = 1000, env, db } = typeof opts === 'function' ? opts() : opts
    return { db, contactBudget: contato, env: { STATUS_REFRESH_MS: '200', ...env }, listen: true }
  }, { skip: noBrowser })
}

export type WatchedPage = {
  page: Page
  /** Console errors and page errors (CSP violations are console errors), less the expected ones. */
  errors(): string[]
  close(): Promise<void>
}

/**
 * A page in a fresh context. `expectNetwork` lists HTTP statuses the test provokes on purpose (a 422, a 429):
 * Chromium logs those responses as console errors ("Failed to load resource… status of 422"), and only
 * those exact lines are forgiven.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions & { expectNetwork?: number[] } = {}): Promise<WatchedPage> {
  const { expectNetwork = [], ...contextOptions } = options
  const context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', ...contextOptions })
  const page = await context.newPage()
  // Each wait (a navigation, a click's page, a locator) fails past 90 s rather than Playwright's 30: on a loaded CI
  // machine a page drawn with its fonts took more than 30 s once. These bounds time nothing.
  page.setDefaultTimeout(90_000)
  const errors: string[] = []
  const forgiven = expectNetwork.map((s) => new RegExp(`^Failed to load resource: the server responded with a status of ${s}\\b`))
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return
    if (m.type() === 'error' && forgiven.some((re) => re.test(m.text()))) return
    errors.push(`${m.type()}: ${m.text()} (${m.location().url})`)
  })
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
  page.on('requestfailed', (r) => {
    // A navigation away from a page in flight is not an error.
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`)
  })
  return { page, errors: () => [...errors], close: () => context.close() }
}

// From the checkout's root (npm test's working directory), not this file's: on Node 20 this file runs from the
// compiled tree (scripts/test-compile.mjs), where a directory made after it was compiled is not linked.
const resultsDir = pathToFileURL(join(process.cwd(), 'test-results/'))

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(resultsDir, { recursive: true })
  const path = new URL(`${name}.png`, resultsDir).pathname
  // A full page drawn on a loaded machine took more than Playwright's 30 s once; the bound only decides when it fails.
  await page.screenshot({ path, fullPage: true, timeout: 120_000 })
  return path
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export type AxeViolation = { id: string, impact: string | null, help: string, nodes: { target: unknown[] }[] }

/** axe-core run inside the page (through the driver, so the page's CSP needs no exception). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!await page.evaluate(() => 'axe' in window)) await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe
    const result = await axe.run(document, {
      resultTypes: ['violations'], runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    })
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }))
  })
}

export function serious(violations: AxeViolation[]): AxeViolation[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}
