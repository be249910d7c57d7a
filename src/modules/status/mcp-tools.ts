// The status module's MCP tools: the public status and the build identity, as GET /api/status and /api/version.
import { ok, publicTwin, toolSchema, type Tool } from '../mcp/index.ts'
import { ManutencaoOut, ServicoOut, StatusOut, VersionOut } from './schemas.ts'
import type { StatusSnapshot } from './snapshot.ts'

export function statusTools(snapshot: Pick<StatusSnapshot, 'current'>, version: Record<string, string>): Tool[] {
  return [
    {
      name: 'status_servicos', title: 'Status dos serviços', twin: publicTwin('GET', '/api/status'),
      description: 'O estado de cada serviço (banco, e-mail, limites), o estado geral e a janela de manutenção declarada, como em GET /api/status.',
      output: toolSchema(StatusOut, [ServicoOut, ManutencaoOut]),
      run: async () => ok(await snapshot.current()),
    },
    {
      name: 'versao', title: 'Versão em execução', twin: publicTwin('GET', '/api/version'),
      description: 'Versão, commit, ambiente, data do build e versão do esquema do banco, como em GET /api/version.',
      output: toolSchema(VersionOut),
      run: async () => ok(version),
    },
  ]
}
