// The web app's paths: one list, so the pages' links, the forms' actions and the tests agree.
import { ACTIVATION_PATH } from '../../credentials/index.ts'

export const ACCOUNT_PATHS = {
  /** The person's and the company's access: tokens, people, sessions. */
  conta: '/conta/pessoas',
  /** Where a person lands once signed in: the back office's dashboard (src/modules/backoffice). */
  painel: '/conta',
  /** From the invitation e-mail (src/modules/credentials/users/send-invitation.ts builds the link with `?convite=`). */
  ativar: ACTIVATION_PATH,
  entrar: '/conta/entrar',
  sair: '/conta/sair',
  criarToken: '/conta/tokens',
  revogarToken: '/conta/tokens/revogar',
  encerrarSessao: '/conta/sessoes/encerrar',
  encerrarTodas: '/conta/sessoes/encerrar-todas',
  papel: '/conta/pessoas/papel',
} as const

/** The query parameter of the activation link that carries the invitation's secret. */
export const INVITATION_PARAM = 'convite'
