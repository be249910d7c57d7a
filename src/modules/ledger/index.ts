// The ledger module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { ledgerModule } from './module.ts'
export { CONTAS, CONTAS_MANUAIS, isConta } from './accounts.ts'
export type { Conta } from './accounts.ts'
export { postEntry, reversed } from './post.ts'
export type { EntryLine, NewEntry } from './post.ts'
export { cedenteStatement, listEntries, trialBalance } from './store.ts'
export type { Entry, Statement, TrialBalanceRow } from './store.ts'
