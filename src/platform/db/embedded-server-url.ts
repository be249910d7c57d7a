// The public address of the server that holds the embedded database, for the CLI that reaches that database through
// its socket. Without PUBLIC_URL a server's address is its own HOST and PORT, which a CLI run with another environment
// cannot know: it printed and e-mailed invitation links to port 3000 while the server listened elsewhere. The server
// writes its address in DATA_DIR with its pid; the CLI believes it only while that pid holds the database's lock, so a
// file left by a server that died (or written by one still starting) is never taken for the live server's.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { lockHolder } from './dir-lock.ts'

const fileIn = (dataDir: string) => join(dataDir, 'servidor.json')

/** Written by the embedded server once it holds the database; the function it answers removes the file again. */
export function recordServerUrl(dataDir: string, publicUrl: string): () => void {
  const file = fileIn(dataDir)
  // Whole or not at all: a CLI reading while it is written sees the previous file or this one.
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ pid: process.pid, public_url: publicUrl })}\n`, { mode: 0o600 })
  renameSync(`${file}.tmp`, file)
  return () => {
    if (recordedBy(file) === process.pid) rmSync(file, { force: true })
  }
}

/** The address the live server of DATA_DIR's embedded database recorded, or undefined when it recorded none. */
export function recordedServerUrl(dataDir: string): string | undefined {
  const holder = lockHolder(join(dataDir, 'pglite'))
  if (holder === undefined) return undefined
  const record = read(fileIn(dataDir))
  return record?.pid === holder && typeof record.public_url === 'string' ? record.public_url : undefined
}

function read(file: string): { pid?: unknown, public_url?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown, public_url?: unknown }
  } catch {
    return undefined
  }
}

const recordedBy = (file: string) => read(file)?.pid
