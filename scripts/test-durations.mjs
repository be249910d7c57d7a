// A node:test reporter (scripts/test.mjs adds it beside the usual one when TEST_DURATIONS is set): one line per
// test file, `<seconds>\t<file>`, slowest first: the wall time of the file's own process, loading included.
// `.ci/run` prints the slowest of each suite.
import { relative, resolve } from 'node:path'
import { sourcePath } from './test-compile.mjs'

export default async function* durations(source) {
  const byFile = []
  for await (const { type, data } of source) {
    // A file's process ends with a `test:complete` named after the file itself (its absolute path on Node 20, the
    // path as given on Node 24).
    if (type === 'test:complete' && data.file && resolve(data.name) === data.file) byFile.push([data.file, data.details?.duration_ms ?? 0])
  }
  for (const [file, ms] of byFile.sort((a, b) => b[1] - a[1])) yield `${(ms / 1000).toFixed(1)}\t${relative(process.cwd(), sourcePath(file))}\n`
}
