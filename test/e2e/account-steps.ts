// What a person does in the browser on the way into the account, shared by the browser tests of /conta.
import type { Page } from 'playwright-core'

/** Follows the invitation `link`, sets `senha` (both fields), waits for the dashboard (`/conta` on `base`) and opens people and tokens. */
export async function activate(page: Page, link: string, senha: string, base: string): Promise<void> {
  await page.goto(link)
  await page.fill('#campo-senha', senha)
  await page.fill('#campo-senha_confirmacao', senha)
  await page.click('#ativar')
  await page.waitForURL(`${base}/conta`)
  await page.goto(`${base}/conta/pessoas`)
}
