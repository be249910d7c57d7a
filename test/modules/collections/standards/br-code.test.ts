// The BR Code against independent sources: the BCB manual's static example (its CRC 1D3D), the CRC-16/CCITT-FALSE
// catalogue's check value ("123456789" → 29B1), the manual's dynamic example (its CRC 64E4), and every code read
// back by an independent parser from the npm registry (@brazilian-utils/brazilian-utils), used only in tests.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { getPixPayloadInfo, isValidPixPayload } from '@brazilian-utils/brazilian-utils'
import { dynamicBrCode, plainText, readBrCode, staticBrCode } from '../../../../src/modules/collections/pix/br-code.ts'
import { crc16CcittFalse } from '../../../../src/modules/collections/pix/crc16.ts'
import { encodeObject, parseObjects } from '../../../../src/modules/collections/pix/emv.ts'

// Manual de Padrões para Iniciação do Pix (BCB), the static example.
const BCB_DYNAMIC = '00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR'
  + '5913Fulano de Tal6008BRASILIA62070503***630464E4'
const BCB_EXAMPLE = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D'

describe('the PIX BR Code', () => {
  it('has the CRC-16/CCITT-FALSE of the CRC catalogue (check value of "123456789")', () => {
    assert.equal(crc16CcittFalse(Buffer.from('123456789')), '29B1')
  })

  it('writes the BCB manual\'s static example byte for byte', () => {
    const code = staticBrCode({ chave: '123e4567-e12b-12d1-a456-426655440000', nome: 'Fulano de Tal', cidade: 'BRASILIA', txid: '***' })
    assert.equal(code, BCB_EXAMPLE)
    assert.ok(code.endsWith('63041D3D'))
  })

  it('reads the manual\'s example back, and refuses it with one character changed (its CRC)', () => {
    const read = readBrCode(BCB_EXAMPLE)
    assert.deepEqual(read, { ok: true, chave: '123e4567-e12b-12d1-a456-426655440000', nome: 'Fulano de Tal', cidade: 'BRASILIA', txid: '***', unico: false })
    assert.deepEqual(readBrCode(BCB_EXAMPLE.replace('Fulano', 'Fulanu')), { ok: false, motivo: 'crc' })
    assert.deepEqual(readBrCode(BCB_EXAMPLE.slice(0, -8)), { ok: false, motivo: 'formato' })
  })

  it('writes the BCB manual\'s dynamic example byte for byte, and the independent parser reads it as we do', () => {
    const code = dynamicBrCode({ location: 'pix.example.com/8b3da2f39a4140d1a91abd93113bd441', nome: 'Fulano de Tal', cidade: 'BRASILIA' })
    assert.equal(code, BCB_DYNAMIC)
    const info = getPixPayloadInfo(code)
    assert.equal(info?.url, 'pix.example.com/8b3da2f39a4140d1a91abd93113bd441')
    assert.equal(info?.pointOfInitiation, 'dynamic')
    assert.equal(info?.merchantName, 'Fulano de Tal')
    assert.equal(getPixPayloadInfo(BCB_EXAMPLE)?.key, '123e4567-e12b-12d1-a456-426655440000')
  })

  it('makes a charge\'s code dynamic: the cobv\'s location, one payment, no key and no amount in the code', () => {
    const code = dynamicBrCode({ location: 'https://pix.sandbox.exemplo/v2/cobv/9f3c2a', nome: 'Factoring São João Ltda', cidade: 'São Paulo' })
    const read = readBrCode(code)
    assert.deepEqual(read, { ok: true, location: 'pix.sandbox.exemplo/v2/cobv/9f3c2a', nome: 'Factoring Sao Joao Ltda', cidade: 'Sao Paulo',
      txid: '***', unico: true })
    const top = parseObjects(code)
    assert.ok(top.ok)
    assert.deepEqual(top.objects.map((o) => o.id), ['00', '01', '26', '52', '53', '58', '59', '60', '62', '63'], 'no 54: the amount is the cobv\'s')
    assert.ok(isValidPixPayload(code), 'the independent parser accepts it')
    assert.equal(getPixPayloadInfo(code)?.url, 'pix.sandbox.exemplo/v2/cobv/9f3c2a')
    assert.equal(isValidPixPayload(code.slice(0, -1) + (code.endsWith('0') ? '1' : '0')), false, 'and refuses it with its CRC changed')
  })

  it('cuts names and cities to the fields\' lengths in the manual\'s characters', () => {
    assert.equal(plainText('Companhia Securitizadora de Créditos Financeiros', 25), 'Companhia Securitizadora')
    assert.equal(plainText('São José dos Campos', 15), 'Sao Jose dos Ca')
    assert.equal(plainText('Ação™ <b>', 25), 'Acao b')
  })

  it('encodes lengths as two digits and refuses what does not fit', () => {
    assert.equal(encodeObject({ id: '62', value: [{ id: '05', value: '***' }] }), '62070503***')
    assert.throws(() => encodeObject({ id: '59', value: 'x'.repeat(100) }), /1 to 99/)
    assert.throws(() => encodeObject({ id: '5', value: 'x' }), /two digits/)
    assert.deepEqual(parseObjects('0002'), { ok: false, at: 0, motivo: 'tamanho' })
    assert.deepEqual(parseObjects('0x0201'), { ok: false, at: 0, motivo: 'id_ou_tamanho' })
  })
})
