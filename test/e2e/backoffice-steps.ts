// What every browser walk of the back office does: a day from today in Brasília, signing in, filling and sending a
// form, and axe-core in light and dark. One place, so that the walks differ only in what they check.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { brasiliaDay } from '../../src/platform/lib/brasilia-time.ts'
import { PASSWORD } from '../helpers/account-web.ts'
import { axeViolations, serious } from './browser.ts'

/** Brasília's day `days` from today, as the forms and the API take it. */
export const dayPlus = (days: number): string => brasiliaDay(new Date(Date.now() + days * 86_400_000))

/** Signs `email` in at `base` with the test password; waits for the dashboard the login lands on. */
export async function signIn(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/conta/entrar`)
  await page.fill('#campo-email', email)
  await page.fill('#campo-senha', PASSWORD)
  await Promise.all([page.waitForURL(`${base}/conta`), page.click('#entrar')])
}

/** Fills the fields (by name) of form `formId`, a select by its option, and sends it; waits for the page it lands on. */
export async function submitForm(page: Page, formId: string, fields: Record<string, string> = {}): Promise<void> {
  const form = page.locator(`#${formId}`)
  for (const [name, value] of Object.entries(fields)) {
    const field = form.locator(`[name="${name}"]`)
    if (await form.locator(`select[name="${name}"]`).count()) await field.selectOption(value)
    else await field.fill(value)
  }
  await Promise.all([page.waitForLoadState('load'), page.waitForNavigation(), form.locator('button[type="submit"]').click()])
}

/** As submitForm, for a form that must be taken: a page that shows refusals fails the test with them. */
export async function sendForm(page: Page, formId: string, fields: Record<string, string> = {}): Promise<void> {
  await submitForm(page, formId, fields)
  const refused = await page.locator('#resumo-erros').count()
  assert.equal(refused, 0, `${formId}: ${refused && await page.locator('main').innerText()}`)
}

/** No serious or critical axe-core violation on the page, in light and in dark (axe runs as the page's script). */
export async function axeChecked(page: Page, what: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    const found = serious(await axeViolations(page))
    assert.deepEqual(found, [], `${what} (${colorScheme}): ${JSON.stringify(found, null, 1)}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}
