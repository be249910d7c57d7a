// The page of people and tokens is a section of the back office, drawn in its shell; but the back office comes
// after this module and imports it, never the other way. So this module opens a point, `accountShell`, and the
// back office gives it the frame (src/platform/module.ts, "contributions"); with no contributor (an app built
// without the back office) the page keeps the site's own layout.
import type { Papel } from '../../credentials/index.ts'
import type { Page } from './view-parts.ts'

/** Who the shell names: the customer, the signed-in person and their role, and the session's CSRF token (for its sign-out). */
export type ShellWho = { csrf: string, papel: Papel, cliente: string, pessoa: string }

export type AccountShell = {
  /** `page` drawn inside the shell, the section of `path` marked current. */
  frame(page: Page, who: ShellWho, path: string): Page
}

declare module '../../../platform/module.ts' {
  interface ModuleContributions {
    accountShell: AccountShell
  }
}
