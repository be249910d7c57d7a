// PGlite does not lock its data directory: two processes opening it would corrupt it. A pid file does.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { StartupError } from '../lib/startup-error.ts'

export type DirLock = { release(): void }

export class DataDirBusyError extends StartupError {
  constructor(dir: string, pid: number) {
    super(`the embedded database in ${dir} is in use by process ${pid}; stop it or set another DATA_DIR`)
  }
}

const lockFile = (dir: string) => join(dir, 'service.lock')

/** The live process that holds `dir`'s lock, or undefined when none does. */
export function lockHolder(dir: string): number | undefined {
  let holder: number
  try { holder = Number(readFileSync(lockFile(dir), 'utf8').trim()) } catch { return undefined }
  return holder && isAlive(holder) ? holder : undefined
}

export function acquireDirLock(dir: string): DirLock {
  const file = lockFile(dir)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return { release: () => rmSync(file, { force: true }) }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const holder = Number(readFileSync(file, 'utf8').trim())
      if (holder && holder !== process.pid && isAlive(holder)) throw new DataDirBusyError(dir, holder)
      rmSync(file, { force: true }) // left behind by a process that died
    }
  }
  throw new Error(`could not lock ${dir}`)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
