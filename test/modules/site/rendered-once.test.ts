// Pages are laid out and compressed once, not once per request: what a visitor gets must not show it. Every
// encoding of a page reads the same; /status follows each new snapshot in every encoding and format; the
// contact form carries a token of the moment it is served, however it is compressed.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { useTestApp } from '../../helpers/fixture.ts'

const ENCODINGS = ['br', 'gzip', 'identity'] as const
type Encoding = (typeof ENCODINGS)[number]

function decoded(res: { rawPayload: Buffer, headers: Record<string, unknown> }): string {
  const enc = res.headers['content-encoding']
  if (enc === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8')
  if (enc === 'gzip') return gunzipSync(res.rawPayload).toString('utf8')
  assert.equal(enc, undefined)
  return res.rawPayload.toString('utf8')
}

describe('pages rendered once', () => {
  // The app's clock: each snapshot and each served form gets a time of its own.
  let now = new Date('2026-11-23T12:00:00Z')
  const ctx = useTestApp({ env: { SPAM_MIN_FILL_MS: '0' }, contactBudget: 100, deps: { clock: { now: () => now } } })
  const get = (url: string, encoding: Encoding, accept = 'text/html') =>
    ctx.app.inject({ url, headers: { accept, 'accept-encoding': encoding } })

  it('every page reads the same in each encoding, with the same headers, request after request', async () => {
    for (const url of ['/', '/status', '/docs', '/privacidade', '/llms.txt']) {
      for (const accept of ['text/html', 'text/markdown']) {
        const plain = await get(url, 'identity', accept)
        assert.equal(plain.statusCode, 200, url)
        for (const encoding of ENCODINGS) {
          const [first, again] = [await get(url, encoding, accept), await get(url, encoding, accept)]
          assert.equal(decoded(first), plain.body, `${url} ${accept} in ${encoding}`)
          assert.equal(decoded(again), plain.body, `${url} ${accept} in ${encoding}, again`)
          for (const h of ['content-type', 'content-encoding', 'cache-control', 'vary', 'link', 'content-length']) {
            assert.equal(again.headers[h], first.headers[h], `${url} ${accept} in ${encoding}: ${h}`)
          }
        }
      }
    }
  })

  it('/status shows each new snapshot, in every encoding and format', async () => {
    for (let i = 0; i < 2; i++) {
      now = new Date(now.getTime() + 60_000)
      const snap = await ctx.app.deps.snapshot.refresh()
      assert.equal(snap.verificado_em, now.toISOString())
      for (const encoding of ENCODINGS) {
        const html = decoded(await get('/status', encoding))
        assert.match(html, new RegExp(`<time id="verificado-em" datetime="${snap.verificado_em}">`), `HTML in ${encoding}`)
        const md = decoded(await get('/status', encoding, 'text/markdown'))
        assert.ok(md.includes(`\`${snap.verificado_em}\``), `Markdown in ${encoding}`)
      }
    }
  })

  it('the contact form carries a token of the moment it is served, in every encoding, and a post of it is accepted', async () => {
    const tokens = new Set<string>()
    for (const encoding of ENCODINGS) {
      now = new Date(now.getTime() + 5_000)
      const token = /name="token_formulario" value="([^"]+)"/.exec(decoded(await get('/contato', encoding)))?.[1]
      assert.ok(token, `a token in ${encoding}`)
      tokens.add(token)
    }
    assert.equal(tokens.size, ENCODINGS.length, 'a new token each time the form is served')
    const form = new URLSearchParams({
      nome: 'Rita Moraes', email: 'rita@tecelagem.com.br', mensagem: 'Quero conhecer a antecipação de recebíveis.', token_formulario: [...tokens].at(-1)!,
    })
    const headers = { 'content-type': 'application/x-www-form-urlencoded' }
    const res = await ctx.app.inject({ method: 'POST', url: '/contato', headers, payload: form.toString() })
    assert.equal(res.statusCode, 202)
    assert.match(res.body, /id="protocolo"/)
  })
})
