// emailProblem() must accept and refuse what pydantic's EmailStr (python-email-validator 2.x, no
// deliverability check) accepts and refuses, with the same `reason` text, since that text reaches clients
// in the 422's `ctx.reason`. Expected reasons are email-validator's own words (several come straight from
// its test suite).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { emailProblem } from '../../../src/platform/lib/email-address.ts'

describe('emailProblem: valid addresses', () => {
  const valid = [
    'maria@empresa.com.br',
    'maria+orcamento@empresa.com.br',
    'maria+tag+outra@empresa.com.br',
    'a.b-c_d@sub.dominio.empresa.com.br',
    'MARIA.SILVA@EMPRESA.COM.BR',
    'a@b.co',
    'x@example.com',
    'Abc.123@test-example.com',
    'user+mailbox/department=shipping@example.tld',
    "!#$%&'*+-/=?^_`.{|}~@example.tld",
    'jeff@臺網中心.tw',
    '伊昭傑@郵件.商務',
    'ñoñó@example.tld',
    'joão.conceição@empresa.com.br',
    'ιωάννης@εεττ.gr',
    'юзер@екзампл.ком',
    'jeff@xn--fiqq24b10vi0d.tw',
    'contato@empresa-de-factoring.com.br',
    'x@a1.b2.com',
    'x@123.example.com',
    `${'a'.repeat(64)}@example.com`,
    `x@${'a'.repeat(63)}.com`,
  ]
  for (const address of valid) {
    it(`accepts ${JSON.stringify(address)}`, () => {
      assert.equal(emailProblem(address), null)
    })
  }
})

describe('emailProblem: the reason an address is refused', () => {
  const long = (n: number) => 'x'.repeat(n)
  const cases: [string, string][] = [
    // The @-sign.
    ['maria.empresa.com.br', 'An email address must have an @-sign.'],
    ['', 'An email address must have an @-sign.'],
    ['@example.com', 'There must be something before the @-sign.'],
    ['maria@', 'There must be something after the @-sign.'],
    ['@', 'There must be something before the @-sign.'],
    // email-validator splits at the first @-sign: a second one belongs to the domain.
    ['a@b@example.com', "The part after the @-sign contains invalid characters: '@'."],

    // Before the @-sign.
    ['white space@test', 'The email address contains invalid characters before the @-sign: SPACE.'],
    ['ma ria@empresa.com.br', 'The email address contains invalid characters before the @-sign: SPACE.'],
    ['\nmy@example.com', 'The email address contains invalid characters before the @-sign: U+000A.'],
    ['m\ty@example.com', 'The email address contains invalid characters before the @-sign: U+0009.'],
    ['a\u0000b@example.com', 'The email address contains invalid characters before the @-sign: U+0000.'],
    ['a\u007fb@example.com', 'The email address contains invalid characters before the @-sign: U+007F.'],
    ['bad"quotes"@example.com', 'The email address contains invalid characters before the @-sign: \'"\'.'],
    ['a\\b@example.com', 'The email address contains invalid characters before the @-sign: "\\".'],
    ['a,b@example.com', "The email address contains invalid characters before the @-sign: ','."],
    // Python sorts the displayed names, not the characters: "'('" sorts before "SPACE".
    ['a (b)@example.com', "The email address contains invalid characters before the @-sign: '(', ')', SPACE."],
    ['.leadingdot@domain.com', 'An email address cannot start with a period.'],
    ['twodots..here@domain.com', 'An email address cannot have two periods in a row.'],
    ['maria..silva@empresa.com.br', 'An email address cannot have two periods in a row.'],
    ['trailingdot.@domain.email', 'An email address cannot have a period immediately before the @-sign.'],
    // The end is checked before the start.
    ['.@domain.com', 'An email address cannot have a period immediately before the @-sign.'],
    [
      '11111111112222222222333333333344444444445555555555666666666677777@example.com',
      'The email address is too long before the @-sign (1 character too many).',
    ],
    [
      '111111111122222222223333333333444444444455555555556666666666777777@example.com',
      'The email address is too long before the @-sign (2 characters too many).',
    ],
    // Length is checked before the characters.
    [`${long(69)} x@example.com`, 'The email address is too long before the @-sign (7 characters too many).'],
    ['a\u00a0b@example.com', 'The email address contains unsafe characters: NO-BREAK SPACE.'],
    ['a\u200bb@example.com', 'The email address contains unsafe characters: ZERO WIDTH SPACE.'],
    ['a\u202eb@example.com', 'The email address contains unsafe characters: RIGHT-TO-LEFT OVERRIDE.'],

    // After the @-sign.
    ['my@localhost', 'The part after the @-sign is not valid. It should have a period.'],
    ['maria@empresa', 'The part after the @-sign is not valid. It should have a period.'],
    ['my@.leadingdot.com', 'An email address cannot have a period immediately after the @-sign.'],
    ['my@twodots..com', 'An email address cannot have two periods in a row.'],
    ['my@trailingdot.com.', 'An email address cannot end with a period.'],
    ['my@.both.', 'An email address cannot end with a period.'],
    ['me@-leadingdash', 'An email address cannot have a hyphen immediately after the @-sign.'],
    ['me@trailingdash-', 'An email address cannot end with a hyphen.'],
    ['my@baddash.-.com', 'An email address cannot have a period and a hyphen next to each other.'],
    ['my@baddash.-a.com', 'An email address cannot have a period and a hyphen next to each other.'],
    ['my@baddash.b-.com', 'An email address cannot have a period and a hyphen next to each other.'],
    ['my@example.com\n', 'The part after the @-sign contains invalid characters: U+000A.'],
    ['my@example\n.com', 'The part after the @-sign contains invalid characters: U+000A.'],
    ['me@x!', "The part after the @-sign contains invalid characters: '!'."],
    ['me@x ', 'The part after the @-sign contains invalid characters: SPACE.'],
    ['test@white space', 'The part after the @-sign contains invalid characters: SPACE.'],
    ['me@under_score.com', "The part after the @-sign contains invalid characters: '_'."],
    ['me@exa\u200bmple.com', 'The email address contains unsafe characters: ZERO WIDTH SPACE.'],
    ['me@ab--cd.com', 'An email address cannot have two letters followed by two dashes immediately after the @-sign or after a period, except Punycode.'],
    [`me@${long(64)}.com`, 'After the @-sign, periods cannot be separated by so many characters (1 character too many).'],
    [`me@${long(66)}.com`, 'After the @-sign, periods cannot be separated by so many characters (3 characters too many).'],
    [`me@${long(63)}.${long(63)}.${long(63)}.${long(58)}.com`, 'The email address is too long after the @-sign (1 character too many).'],
    [`me@${long(63)}.${long(63)}.${long(63)}.${long(60)}.com`, 'The email address is too long after the @-sign (3 characters too many).'],
    // All top-level domains end with a letter.
    ['me@example.123', 'The part after the @-sign is not valid. It is not within a valid top-level domain.'],
    ['me@1.2.3.4', 'The part after the @-sign is not valid. It is not within a valid top-level domain.'],
    ['me@example.c1', 'The part after the @-sign is not valid. It is not within a valid top-level domain.'],
    // Special-use and reserved names.
    ['x@foo.local', 'The part after the @-sign is a special-use or reserved name that cannot be used with email.'],
    ['x@FOO.LOCAL', 'The part after the @-sign is a special-use or reserved name that cannot be used with email.'],
    ['x@empresa.test', 'The part after the @-sign is a special-use or reserved name that cannot be used with email.'],
    ['x@nada.invalid', 'The part after the @-sign is a special-use or reserved name that cannot be used with email.'],
    ['x@www.localhost', 'The part after the @-sign is a special-use or reserved name that cannot be used with email.'],
    ['x@abc.onion', 'The part after the @-sign is a special-use or reserved name that cannot be used with email.'],
    ['x@1.168.192.in-addr.arpa', 'The part after the @-sign is a special-use or reserved name that cannot be used with email.'],

    // The whole address.
    [`${long(64)}@${long(63)}.${long(63)}.${long(60)}.com`, 'The email address is too long (3 characters too many).'],
    // In UTF-8 bytes: 64 four-byte characters are 14 bytes too many, which is 3 to 14 characters.
    [`${'𝒶'.repeat(64)}@example.com`, 'The email address is too long (3-14 characters too many).'],
    // pydantic's own cap, checked before email-validator runs.
    [`${long(2049)}@example.com`, 'Length must not exceed 2048 characters'],
  ]
  for (const [address, reason] of cases) {
    it(`${JSON.stringify(address.length > 60 ? address.slice(0, 57) + '...' : address)}: ${reason}`, () => {
      assert.equal(emailProblem(address), reason)
    })
  }

  it('boundaries: 64 characters before the @-sign and 254 in all pass, one more fails', () => {
    const local = long(64)
    const at254 = `${local}@${long(63)}.${long(63)}.${long(57)}.com`
    assert.equal(at254.length, 254)
    assert.equal(emailProblem(at254), null)
    const at255 = `${local}@${long(63)}.${long(63)}.${long(58)}.com`
    assert.equal(emailProblem(at255), 'The email address is too long (1 character too many).')
  })

  it('counts characters as code points, as Python does', () => {
    // 30 non-BMP characters are 60 UTF-16 units but 30 characters.
    assert.equal(emailProblem(`${'𝒶'.repeat(30)}@example.com`), null)
    assert.equal(emailProblem(`${'𝒶'.repeat(65)}@example.com`), 'The email address is too long before the @-sign (1 character too many).')
  })

  it('never throws, whatever the string', () => {
    for (const s of ['@@', '@.', '.@.', '-@-', 'a@-', 'a@.', '\ud800@x.com', 'x@\udfff.com', '\u0301a@example.com', 'a@\u0301b.com', 'a@b.\u00e9']) {
      const r = emailProblem(s)
      assert.ok(r === null || typeof r === 'string')
    }
  })
})
