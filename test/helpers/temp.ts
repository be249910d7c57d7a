// Temporary directories that remove themselves when the test process exits, however it got there
// (a failed assertion, a hook that threw, an app never closed): the test runner fails a run that leaves any.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const made: string[] = []
process.once('exit', () => { for (const dir of made) rmSync(dir, { recursive: true, force: true }) })

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `fps-${prefix}-`))
  made.push(dir)
  return dir
}
