// A retorno's body written to a private temporary file as it arrives, hashed on the way and bounded: the service
// never holds a bank's file of tens of megabytes in memory, and a slow sender holds neither memory nor a database
// connection (the upload's transaction opens only once the whole file is on disk). The file is read back, streaming,
// for the upload's one pass, and removed whatever happens.
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { problem } from '../../../platform/http/problem.ts'

export interface Spooled {
  bytes: number
  sha256: string
  /** The file's bytes, from the start, in chunks. */
  read(): AsyncIterable<Buffer>
  dispose(): Promise<void>
}

/** Past `maxBytes` the body is refused (413 corpo_muito_grande) without reading the rest. `under`: where (the system's temporary directory). */
export async function spool(body: Readable, maxBytes: number, under = tmpdir()): Promise<Spooled> {
  // mkdtemp makes the directory readable by this user alone.
  const dir = await mkdtemp(join(under, 'retorno-'))
  const path = join(dir, 'arquivo')
  const dispose = () => rm(dir, { recursive: true, force: true })
  const hash = createHash('sha256')
  let bytes = 0
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length
      if (bytes > maxBytes) {
        done(problem('corpo_muito_grande'))
        return
      }
      hash.update(chunk)
      done(null, chunk)
    },
  })
  try {
    await pipeline(body, counted, createWriteStream(path, { mode: 0o600 }))
  } catch (err) {
    await dispose()
    throw err
  }
  return { bytes, sha256: hash.digest('hex'), read: () => createReadStream(path, { highWaterMark: 64 * 1024 }), dispose }
}
