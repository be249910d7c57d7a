// The NF-e access key (chave de acesso): 44 digits, the last a mod-11 check digit over the other 43 with weights
// 2 to 9 repeating from the right; DV = 11 − (sum mod 11), and 0 when the remainder is 0 or 1 (Manual de
// Orientação do Contribuinte, "Chave de Acesso").

export function isChaveNfe(key: string): boolean {
  if (!/^[0-9]{44}$/.test(key)) return false
  let sum = 0
  for (let i = 42, weight = 2; i >= 0; i--, weight = weight === 9 ? 2 : weight + 1) sum += Number(key[i]) * weight
  const r = sum % 11
  return Number(key[43]) === (r < 2 ? 0 : 11 - r)
}
