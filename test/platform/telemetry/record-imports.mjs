// `--import` this before the service: every module the ES module loader resolves is appended to $IMPORT_LOG,
// one URL a line (test/platform/telemetry/tracing.test.ts reads which packages a process loaded).
import { register } from 'node:module'

register('./record-imports-hooks.mjs', import.meta.url)
