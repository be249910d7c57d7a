// The charges' instructions: asked under the charge's lock (so two at once see each other), listed in the order
// asked, and answered by the bank: each in the caller's tenant transaction.
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { contasCobranca } from '../accounts/tables.ts'
import { cobrancas } from '../charges/tables.ts'
import { cobrancaInstrucoes, type InstrucaoPedida } from './tables.ts'

export type Instruction = typeof cobrancaInstrucoes.$inferSelect

/** What an instruction is checked against: the charge, read locked, and its account's transport now. */
export type ChargeToInstruct = {
  id: string, estado: string, valorCentavos: number, vencimento: string, protestoDias: number, transporte: 'api' | 'cnab',
}

export async function lockChargeToInstruct(tx: Orm, id: string): Promise<ChargeToInstruct | undefined> {
  const [row] = await tx.select({
    id: cobrancas.id, estado: cobrancas.estado, valorCentavos: cobrancas.valorCentavos, vencimento: cobrancas.vencimento,
    protestoDias: cobrancas.protestoDias, transporte: contasCobranca.transporte,
  }).from(cobrancas).innerJoin(contasCobranca, eq(contasCobranca.id, cobrancas.contaCobrancaId))
    .where(eq(cobrancas.id, id)).for('update', { of: cobrancas })
  return row
}

export async function instructionsOf(tx: Orm, cobrancaId: string): Promise<Instruction[]> {
  return tx.select().from(cobrancaInstrucoes).where(eq(cobrancaInstrucoes.cobrancaId, cobrancaId)).orderBy(asc(cobrancaInstrucoes.seq))
}

export type NewInstruction = {
  clienteId: string, cobrancaId: string, instrucao: InstrucaoPedida, vencimento: string | null, abatimentoCentavos: number | null,
  transporte: 'api' | 'cnab', now: Date, iof?: { centavos: number, dias: number },
}

export async function createInstruction(tx: Orm, i: NewInstruction): Promise<Instruction> {
  const [row] = await tx.insert(cobrancaInstrucoes).values({
    clienteId: i.clienteId, cobrancaId: i.cobrancaId, instrucao: i.instrucao, vencimento: i.vencimento, abatimentoCentavos: i.abatimentoCentavos,
    iofCentavos: i.iof?.centavos ?? null, iofDias: i.iof?.dias ?? null, transporte: i.transporte, estado: 'pendente', criadoEm: i.now, atualizadoEm: i.now,
  }).returning()
  return row!
}

/** What the bank needs to carry out an instruction: it, its charge's nosso número, and the account at the bank. */
export async function instructionRows(tx: Orm, id: string) {
  const [row] = await tx.select({
    i: cobrancaInstrucoes,
    nossoNumero: cobrancas.nossoNumero,
    conta: {
      banco: contasCobranca.banco, agencia: contasCobranca.agencia, conta: contasCobranca.conta, contaDigito: contasCobranca.contaDigito,
      carteira: contasCobranca.carteira, convenio: contasCobranca.convenio,
    },
  }).from(cobrancaInstrucoes)
    .innerJoin(cobrancas, eq(cobrancas.id, cobrancaInstrucoes.cobrancaId))
    .innerJoin(contasCobranca, eq(contasCobranca.id, cobrancas.contaCobrancaId))
    .where(eq(cobrancaInstrucoes.id, id))
  return row
}

/** The bank's answer, once: conditional on the instruction still pending, so two workers racing record it once. */
export async function recordAnswer(tx: Orm, id: string, estado: 'confirmada' | 'rejeitada', resposta: Record<string, unknown>, now: Date) {
  await tx.update(cobrancaInstrucoes).set({ estado, bancoResposta: resposta, erro: null, proximaEm: null, atualizadoEm: now })
    .where(and(eq(cobrancaInstrucoes.id, id), eq(cobrancaInstrucoes.estado, 'pendente')))
}

/** The bank could not be asked: the attempt counted, the next one due at `next`, the reason kept. */
export async function postpone(tx: Orm, id: string, next: Date, motivo: string, now: Date) {
  await tx.update(cobrancaInstrucoes).set({
    tentativas: sql`${cobrancaInstrucoes.tentativas} + 1`, proximaEm: next, erro: motivo.slice(0, 500), atualizadoEm: now,
  }).where(and(eq(cobrancaInstrucoes.id, id), eq(cobrancaInstrucoes.estado, 'pendente')))
}
