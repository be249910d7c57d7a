// CPF and CNPJ check digits against the Receita's published examples and two implementations from the npm
// registry (used only here), never against this code's own output.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import * as brUtils from '@brazilian-utils/brazilian-utils'
import fc from 'fast-check'
import { validateCNPJ, validateCPF } from 'validations-br'
import { parseDocumento } from '../../../src/modules/origination/documento.ts'

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'

describe('documento: published examples', () => {
  it("accepts the Receita's alphanumeric CNPJ 12ABC34501DE35, bare or punctuated, lower-case too", () => {
    for (const input of ['12ABC34501DE35', '12.ABC.345/01DE-35', '12.abc.345/01de-35']) {
      assert.deepEqual(parseDocumento(input), { documento: '12ABC34501DE35', tipoPessoa: 'pj' })
    }
  })

  it('accepts the numeric CNPJ 11.222.333/0001-81 and the CPF 111.444.777-35', () => {
    assert.deepEqual(parseDocumento('11.222.333/0001-81'), { documento: '11222333000181', tipoPessoa: 'pj' })
    assert.deepEqual(parseDocumento('111.444.777-35'), { documento: '11144477735', tipoPessoa: 'pf' })
  })

  it('refuses each published example with either check digit changed', () => {
    for (const good of ['12ABC34501DE35', '11222333000181', '11144477735']) {
      for (const pos of [good.length - 2, good.length - 1]) {
        const wrong = good.slice(0, pos) + String((Number(good[pos]) + 1) % 10) + good.slice(pos + 1)
        assert.equal(parseDocumento(wrong), 'digito_verificador', wrong)
      }
    }
  })

  it('refuses shapes that are neither: letters in a check digit, 13 or 15 characters, a letter in a CPF, symbols', () => {
    for (const bad of ['12ABC34501DE3A', '1222333000181', '112223330001811', '1114447773A', '11144477735!', '', 'ABCDEFGHIJKLMN']) {
      assert.equal(parseDocumento(bad), 'formato', bad)
    }
  })

  it('refuses the repeated-digit CPFs and the all-zero CNPJ the arithmetic lets through', () => {
    for (let d = 0; d <= 9; d++) assert.equal(parseDocumento(String(d).repeat(11)), 'digito_verificador')
    assert.equal(parseDocumento('00000000000000'), 'digito_verificador')
  })
})

describe('documento: agrees with validations-br and @brazilian-utils on random documents', () => {
  it('alphanumeric CNPJs: ours, validations-br and @brazilian-utils (version 2) agree on random bodies and check pairs', () => {
    fc.assert(fc.property(
      fc.array(fc.constantFrom(...ALNUM), { minLength: 12, maxLength: 12 }), fc.integer({ min: 0, max: 99 }),
      (body, dv) => {
        const cnpj = body.join('') + String(dv).padStart(2, '0')
        const ours = typeof parseDocumento(cnpj) === 'object'
        assert.equal(ours, validateCNPJ(cnpj), cnpj)
        assert.equal(ours, brUtils.isValidCnpj(cnpj, { version: 2 }), cnpj)
      }), { numRuns: 3000 })
  })

  it('every alphanumeric CNPJ @brazilian-utils generates is valid here', () => {
    for (let k = 0; k < 1000; k++) {
      const cnpj = brUtils.generateCnpj({ version: 2 })
      assert.deepEqual(parseDocumento(cnpj), { documento: cnpj, tipoPessoa: 'pj' }, cnpj)
    }
  })

  it('every CNPJ and CPF @brazilian-utils generates is valid here, and agrees on random numeric ones', () => {
    for (let k = 0; k < 500; k++) {
      assert.equal(typeof parseDocumento(brUtils.generateCNPJ()), 'object')
      assert.equal(typeof parseDocumento(brUtils.generateCPF()), 'object')
    }
    fc.assert(fc.property(fc.stringMatching(/^[0-9]{11}$/), (cpf) => {
      if (/^(\d)\1{10}$/.test(cpf)) return
      assert.equal(typeof parseDocumento(cpf) === 'object', brUtils.isValidCPF(cpf) && validateCPF(cpf), cpf)
    }), { numRuns: 3000 })
  })
})
