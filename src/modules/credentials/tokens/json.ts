// A token as JSON for its customer (the CLI's `--json`, GET /api/conta/tokens): everything but the secret and its
// digest, which no listing ever has.
import type { TokenInfo } from './store.ts'

export type TokenState = 'ativo' | 'revogado' | 'expirado'

export function tokenState(t: Pick<TokenInfo, 'revogadoEm' | 'expiraEm'>, now: Date): TokenState {
  if (t.revogadoEm) return 'revogado'
  return t.expiraEm.getTime() <= now.getTime() ? 'expirado' : 'ativo'
}

const isoOrNull = (d: Date | null): string | null => (d === null ? null : d.toISOString())

export function tokenJson(t: TokenInfo, now: Date) {
  return {
    id: t.id, nome: t.nome, escopos: t.escopos, estado: tokenState(t, now), criado_em: t.criadoEm.toISOString(), expira_em: t.expiraEm.toISOString(),
    primeiro_uso_em: isoOrNull(t.primeiroUsoEm), ultimo_uso_em: isoOrNull(t.ultimoUsoEm), ultimo_uso_ip: t.ultimoUsoIp,
    revogado_em: isoOrNull(t.revogadoEm), dpop_jkt: t.dpopJkt, usuario_id: t.usuarioId,
  }
}
