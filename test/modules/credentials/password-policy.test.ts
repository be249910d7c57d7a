// The rules a new password must meet: length in characters (12 to 128), not a common password nor one padded
// with digits and symbols, not the person's e-mail or name. The list ships in the repository and in dist/.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { COMMON_PASSWORDS_FILE, loadCommonPasswords, passwordProblem } from '../../../src/modules/credentials/password-policy.ts'

const common = loadCommonPasswords()
const maria = { email: 'Maria.Silva.Souza@Empresa.com.br', nome: 'Maria Silva Souza' }
const check = (password: string) => passwordProblem(password, maria, common)

describe('password policy', () => {
  it('accepts a long, uncommon password, passphrases with spaces and accents included', () => {
    for (const ok of ['correct horse battery staple', 'Ação rápida e segura', 'vK8#qz!Lm2pW', '🔒 cofre da firma 🔒']) {
      assert.equal(check(ok), undefined, ok)
    }
  })

  it('counts characters, not bytes: 12 to 128 code points after NFKC', () => {
    assert.equal(check('zq7vm1xk4tw'), 'senha_curta')
    assert.equal(check('zq7vm1xk4twb'), undefined)
    assert.equal(check('🦜'.repeat(11)), 'senha_curta')
    assert.equal(check(`${'🦜'.repeat(11)}x`), undefined)
    assert.equal(check('zq7vm1xk4tw'.padEnd(128, 'ab')), undefined)
    assert.equal(check('zq7vm1xk4tw'.padEnd(129, 'ab')), 'senha_longa')
    // "ﬁ" is one character that NFKC makes two: the password is counted as it will be hashed.
    assert.equal(check('ﬁ'.repeat(6)), undefined)
    assert.equal(check(`${'ﬁ'.repeat(5)}q`), 'senha_curta')
  })

  it('refuses a common password whatever its case, and one with digits and symbols added around it', () => {
    for (const bad of ['unbelievable', 'UNBELIEVABLE', 'Password1234!', 'qwerty123456', '2024!!dragon', '  football  ##', 'aaaaaaaaaaaa',
      '111111111111']) {
      assert.equal(check(bad), 'senha_comum', bad)
    }
  })

  it('refuses the person\'s e-mail, its local part, or name, in any case and with or without spaces', () => {
    for (const bad of ['maria.silva.souza@empresa.com.br', 'MARIA.SILVA.SOUZA', 'maria silva souza', 'MariaSilvaSouza', 'MariaSilvaSouza2024!']) {
      assert.equal(check(bad), 'senha_pessoal', bad)
    }
    assert.equal(passwordProblem('MariaSilvaSouza2024!', {}, common), undefined, 'only the owner\'s own details are refused')
  })

  it('ships the 10,000 passwords, lower-cased, beside the sources and in the built dist/', () => {
    assert.equal(common.size, 10_000)
    for (const p of ['123456', 'password', 'qwerty', 'dragon', 'unbelievable']) assert.ok(common.has(p), p)
    assert.ok([...common].every((p) => p === p.toLowerCase() && p.trim() === p && p.length > 0))
    const built = join(import.meta.dirname, '../../../dist/modules/credentials/common-passwords.txt')
    assert.equal(readFileSync(built, 'utf8'), readFileSync(COMMON_PASSWORDS_FILE, 'utf8'))
  })
})
