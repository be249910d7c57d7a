// Files in DATA_DIR hold the database and visitors' personal data: this user's alone (0700 directories, 0600 files).
import { chmodSync, lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** Takes group and world access away from `dir` and everything under it (symbolic links are left alone). */
export function makePrivate(dir: string): void {
  const st = lstatSync(dir)
  if (st.isSymbolicLink()) return
  if (st.isDirectory()) {
    if (st.mode & 0o077) chmodSync(dir, 0o700)
    for (const name of readdirSync(dir)) makePrivate(join(dir, name))
  } else if (st.mode & 0o077) {
    chmodSync(dir, 0o600)
  }
}
