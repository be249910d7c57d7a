// A valid numeric CNPJ not used before in this process (a customer's document is unique across customers): a random
// root, the branch 0001, and the check digits by the Receita's weights.
let made = 0

const withDigit = (d: string): string => {
  const weights = d.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
  const r = [...d].reduce((s, c, i) => s + Number(c) * weights[i]!, 0) % 11
  return d + (r < 2 ? 0 : 11 - r)
}

export function freshCnpj(): string {
  const root = String(10_000_000 + ((Math.floor(Math.random() * 80_000_000) + ++made * 7919) % 89_999_999))
  return withDigit(withDigit(`${root}0001`))
}
