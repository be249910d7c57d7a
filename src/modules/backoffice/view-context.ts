// What every back office page is drawn with: the session's CSRF token and person, what was just done or refused,
// and what a refused form had posted; and what the shell shows, the customer's and the person's names.
import type { Papel } from '../credentials/index.ts'
import { permits } from '../credentials/index.ts'
import type { Posted } from './forms.ts'
import type { Shown } from './layout.ts'

export type ViewContext = {
  csrf: string
  usuarioId: string
  papel: Papel
  shown: Shown
  posted?: Posted | undefined
}

/** Whether the person's role lets them change what `escopo` covers (a page offers only what they may do). */
export const mayChange = (v: ViewContext, escopo: string): boolean => permits(v.papel, escopo, true)
