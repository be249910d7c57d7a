// The web app's paths: one list, so the pages' links, the forms' actions and the tests agree.
import { ACTIVATION_PATH } from '../../credentials/index.ts'

export const ACCOUNT_PATHS = {
  conta: '/conta',
  /** From the invitation e-mail (src/modules/credentials/users/send-invitation.ts builds the link with `?convite=`). */
  ativar: ACTIVATION_PATH,
  entrar: '/conta/entrar',
  sair: '/conta/sair',
  criarToken: '/conta/tokens',
  revogarToken: '/conta/tokens/revogar',
  encerrarSessao: '/conta/sessoes/encerrar',
  encerrarTodas: '/conta/sessoes/encerrar-todas',
  papel: '/conta/pessoas/papel',
  /** Where the back office starts (src/modules/backoffice: operations, registers, the ledger). */
  retaguarda: '/conta/operacoes',
} as const

/** The query parameter of the activation link that carries the invitation's secret. */
export const INVITATION_PARAM = 'convite'
