// The company that runs the service, as the public site names it (the footer of every page, the home page): its
// name, CNPJ and address come from the installation, never from the code. Unset, each is a placeholder that says
// it is one and which variable fills it, so a development copy never passes for a company that exists.
import { text } from '../../platform/settings/kinds.ts'

declare module '../../platform/config.ts' {
  interface Config {
    empresa: Empresa
  }
}

/** The operator of the installation; `exemplo`: some field was unset and shows a placeholder. */
export type Empresa = { nome: string, cnpj: string, endereco: string, exemplo: boolean }

const PLACEHOLDER = 'a placeholder naming the variable (development)'

export const SITE_SETTINGS = {
  empresaNome: text('EMPRESA_NOME', { unset: PLACEHOLDER, description: 'the legal name of the company that runs the service, shown on every public page' }),
  empresaCnpj: text('EMPRESA_CNPJ', { unset: PLACEHOLDER, description: 'its CNPJ, shown beside its name' }),
  empresaEndereco: text('EMPRESA_ENDERECO', { unset: PLACEHOLDER, description: 'its address, shown beside its name' }),
}

export function empresaConfig(v: { empresaNome: string, empresaCnpj: string, empresaEndereco: string }): Empresa {
  const or = (value: string, variable: string, what: string) => value.trim() || `[${what} de exemplo: defina ${variable}]`
  return {
    nome: or(v.empresaNome, 'EMPRESA_NOME', 'nome'),
    cnpj: or(v.empresaCnpj, 'EMPRESA_CNPJ', 'CNPJ'),
    endereco: or(v.empresaEndereco, 'EMPRESA_ENDERECO', 'endereço'),
    exemplo: !v.empresaNome.trim() || !v.empresaCnpj.trim() || !v.empresaEndereco.trim(),
  }
}
