// Issue 9's "done when", end to end as a customer meets it: invited by the operator, activating in a real browser,
// making a DPoP-bound token at /conta with the thumbprint of a key made by scripts/dpop-proof.mjs, calling
// GET /api/conta from outside the browser with that script's proofs (the nonce round trip included), finding the
// call in the audit trail by its X-Request-ID, and revoking the token, after which it is refused.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { promisify } from 'node:util'
import { invitedPerson } from '../helpers/account-web.ts'
import { tempDir } from '../helpers/temp.ts'
import { activate } from './account-steps.ts'
import { chromium } from 'playwright-core'
import { defer } from '../helpers/fixture.ts'
import { CHROMIUM, CHROMIUM_ARGS, noBrowser, openPage, useServer } from './browser.ts'

const run = promisify(execFile)
const SCRIPT = new URL('../../scripts/dpop-proof.mjs', import.meta.url).pathname
// Clients name the public address (behind a proxy, not the listener's): proofs are made for it, and the browser
// reaches the listener by that name (its resolver maps it), as the forms are taken from PUBLIC_URL alone.
const PUBLIC_URL = 'http://conta.fatorial.test'
const SENHA = 'jabuticaba azul no telhado'

const script = async (...args: string[]) => (await run(process.execPath, [SCRIPT, ...args])).stdout.trim()

describe('a customer, from invitation to a revoked DPoP-bound token', () => {
  const server = useServer({ env: { PUBLIC_URL } })

  it('invitation → password → token bound to a key → GET /api/conta with proofs → audit → revoked', { skip: noBrowser }, async (t) => {
    const port = new URL(server.base).port
    const browser = await chromium.launch({
      executablePath: CHROMIUM, timeout: 30_000,
      // Trusted as localhost is (else Chromium warns that it ignores Cross-Origin-Opener-Policy over plain http).
      args: [
        ...CHROMIUM_ARGS,
        `--host-resolver-rules=MAP ${new URL(PUBLIC_URL).hostname} 127.0.0.1:${port}`,
        `--unsafely-treat-insecure-origin-as-secure=${PUBLIC_URL}`,
      ],
    })
    defer(t, () => browser.close())
    const keyFile = join(tempDir('dpop-key'), 'chave.json')
    const thumbprint = (await script('key', keyFile)).split('\n').pop()!
    assert.match(thumbprint, /^[A-Za-z0-9_-]{43}$/)

    const p = await invitedPerson(server.db, PUBLIC_URL)
    const w = await openPage(browser)
    let token: string
    try {
      const { page } = w
      await activate(page, p.link, SENHA, PUBLIC_URL)
      await page.fill('#campo-nome', 'Script de conciliação')
      await page.fill('#campo-dpop_jkt', thumbprint)
      await page.click('#criar-token')
      token = (await page.locator('#token-novo').textContent())!.trim()
      assert.match(token, /^fct_pat_/)

      const call = async (path: string, nonce?: string) => {
        const proof = await script('proof', keyFile, 'GET', PUBLIC_URL + path, '--token', token, ...(nonce ? ['--nonce', nonce] : []))
        return fetch(server.base + path, { headers: { authorization: `DPoP ${token}`, dpop: proof } })
      }
      const first = await call('/api/conta')
      assert.equal(first.status, 401)
      assert.equal((await first.json()).detail, 'dpop_nonce_obrigatorio')
      const nonce = first.headers.get('dpop-nonce')!
      assert.ok(nonce)
      const conta = await call('/api/conta', nonce)
      assert.equal(conta.status, 200)
      const body = await conta.json()
      assert.equal(body.cliente.id, p.clienteId)
      assert.equal(body.credencial.dpop, true)
      assert.equal(body.credencial.nome, 'Script de conciliação')
      const requestId = conta.headers.get('x-request-id')

      const audit = await call('/api/conta/auditoria', conta.headers.get('dpop-nonce') ?? nonce)
      assert.equal(audit.status, 200)
      const rows = (await audit.json()).itens as { acao: string, request_id: string | null }[]
      assert.ok(rows.some((r) => r.acao === 'token.primeiro_uso' && r.request_id === requestId), JSON.stringify(rows))

      await page.goto(`${PUBLIC_URL}/conta/pessoas`)
      await page.locator('#tokens tbody tr', { hasText: 'Script de conciliação' }).getByRole('button', { name: /Revogar/ }).click()
      await page.locator('#aviso', { hasText: 'O token foi revogado' }).waitFor()
      const after = await call('/api/conta', nonce)
      assert.equal(after.status, 401)
      assert.equal((await after.json()).detail, 'token_invalido')
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })
})
