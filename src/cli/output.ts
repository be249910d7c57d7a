export type Output = { log(line: string): void, error(line: string): void }

/** Bad words on the command line: the CLI prints the message and the help, and exits 2. */
export class UsageError extends Error {}
