// What the web app tells a person, in Portuguese: each refusal's clear words (the stable codes stay in the code).
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type PasswordProblem } from '../../credentials/index.ts'

export const PASSWORD_MESSAGES: Readonly<Record<PasswordProblem | 'senha_diferente', string>> = {
  senha_curta: `A senha precisa ter pelo menos ${PASSWORD_MIN_LENGTH} caracteres.`,
  senha_longa: `A senha pode ter no máximo ${PASSWORD_MAX_LENGTH} caracteres.`,
  senha_comum: 'Esta senha está entre as mais usadas (ou é uma delas com números ou símbolos em volta) e seria adivinhada logo. '
    + 'Escolha outra: uma frase com palavras ao acaso é fácil de lembrar e difícil de adivinhar.',
  senha_pessoal: 'A senha não pode ser o seu e-mail nem o seu nome.',
  senha_diferente: 'As duas senhas digitadas não são iguais.',
}

export const PASSWORD_HINT = `Pelo menos ${PASSWORD_MIN_LENGTH} caracteres; nada de senhas comuns, do seu nome ou do seu e-mail. Uma frase serve bem.`

/** The one answer to a wrong password and to an e-mail nobody has: the two must not be told apart. */
export const LOGIN_FAILED = 'E-mail ou senha incorretos.'
export const LOGIN_SUSPENDED_CUSTOMER = 'A assinatura desta conta está inativa, e o acesso está suspenso. Fale com o comercial para reativá-la.'
export const LOGIN_SUSPENDED_USER = 'O seu acesso está suspenso. Fale com quem administra a conta na sua empresa ou com o comercial.'

export function tooManyAttempts(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  return `Tentativas demais em pouco tempo. Aguarde ${minutes === 1 ? '1 minuto' : `${minutes} minutos`} e tente de novo.`
}

export const INVITATION_TEXT = {
  desconhecido: ['Link de convite inválido', 'Este link de ativação não é válido. Confira se ele foi copiado inteiro do e-mail de convite.'],
  usado: ['Convite já usado', 'Este convite já foi usado para criar uma senha. Entre com o seu e-mail e a senha criada.'],
  expirado: ['Convite expirado', 'Este convite passou do prazo de validade. Peça um novo convite ao comercial (ou a quem convidou você).'],
  suspenso: ['Assinatura inativa', 'A assinatura desta conta está inativa, e o convite não pode ser usado agora. Fale com o comercial.'],
} as const

export type InvitationProblem = keyof typeof INVITATION_TEXT

/** After a redirect, the notice the page shows (`?aviso=`): a fixed list, never text from the query. */
export const NOTICES = {
  'saiu': 'Você saiu da conta.',
  'saiu-de-todos': 'Todas as suas sessões foram encerradas, inclusive esta.',
  'sessao-expirada': 'A sua sessão terminou. Entre de novo para continuar.',
  'token-revogado': 'O token foi revogado: ele deixou de funcionar.',
  'token-ja-revogado': 'Este token já estava revogado.',
  'sessao-encerrada': 'A sessão foi encerrada.',
  'papel-alterado': 'O papel da pessoa foi alterado: vale a partir da próxima ação dela.',
  'papel-igual': 'A pessoa já tinha este papel: nada mudou.',
  // The token form was posted again (its key already made a token): the secret was shown once, on the first answer.
  'token-ja-criado': 'Este formulário já criou um token, que está na lista abaixo. O segredo dele só foi mostrado uma vez, na primeira resposta: '
    + 'se você não o copiou, revogue este token e crie outro.',
} as const

export type Notice = keyof typeof NOTICES

export function noticeOf(value: unknown): Notice | undefined {
  return typeof value === 'string' && Object.hasOwn(NOTICES, value) ? value as Notice : undefined
}

/** The token form's key is in use by a post still running, or made a token from other values. */
export const TOKEN_FORM_IN_USE = ['Token em criação', 'Este formulário já foi enviado e o token está sendo criado. '
  + 'Abra a página da conta de novo em instantes para vê-lo.'] as const
export const TOKEN_FORM_REUSED = ['Formulário já usado', 'Este formulário já criou um token com outros dados. '
  + 'Abra a página da conta de novo e preencha o formulário outra vez.'] as const
export const TOKEN_REFUSED = ['Token não criado', 'Os dados do token não passaram nas regras da conta (ou o seu acesso mudou agora). '
  + 'Abra a página da conta de novo e preencha o formulário outra vez.'] as const

/** The post of a form of the account was refused (another site's, or a stale page's). */
export const FORM_REFUSED = ['Envio recusado', 'Este formulário só vale quando enviado a partir desta página do site, aberta na sua sessão. '
  + 'Recarregue a página e tente de novo.'] as const

/** What only an administrador of the customer may do, asked by someone else (or beyond the person's role). */
export const ROLE_REFUSED = ['Sem permissão', 'O seu papel na empresa não permite isto. Quem é administrador da conta pode mudar o seu papel.'] as const

/** The customer's last active administrador would lose the role. */
export const LAST_ADMIN = ['Papel não alterado', 'A empresa ficaria sem nenhum administrador ativo: dê o papel de administrador a outra pessoa antes.'] as const
