// A CPF or a CNPJ as people read it, on every page, document and export: 529.982.247-25, 11.222.333/0001-81 (the
// alphanumeric CNPJ of 2026 too: its letters keep their places). Anything else is shown as it came.

/** `documento` (digits only, as stored) with its punctuation. */
export function documentoFormatado(d: string): string {
  if (/^[0-9]{11}$/.test(d)) return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`
  if (/^[0-9A-Z]{12}[0-9]{2}$/.test(d)) return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`
  return d
}
