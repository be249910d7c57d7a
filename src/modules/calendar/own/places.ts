// A municipality's state from its IBGE code: the code's first two digits are the state's IBGE code (IBGE, Divisão
// Territorial Brasileira). A state holiday of the customer's applies to every municipality of that state.
const UF_BY_CODE: Record<string, string> = {
  11: 'RO', 12: 'AC', 13: 'AM', 14: 'RR', 15: 'PA', 16: 'AP', 17: 'TO', 21: 'MA', 22: 'PI', 23: 'CE', 24: 'RN', 25: 'PB', 26: 'PE', 27: 'AL',
  28: 'SE', 29: 'BA', 31: 'MG', 32: 'ES', 33: 'RJ', 35: 'SP', 41: 'PR', 42: 'SC', 43: 'RS', 50: 'MS', 51: 'MT', 52: 'GO', 53: 'DF',
}

/** The state of a 7-digit IBGE municipality code, or undefined for a code no state has. */
export function ufOfMunicipio(municipioIbge: string): string | undefined {
  return /^[0-9]{7}$/.test(municipioIbge) ? UF_BY_CODE[municipioIbge.slice(0, 2)] : undefined
}
