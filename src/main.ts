// Process entry: read the config, build the app, listen; close gracefully on SIGINT/SIGTERM.
import closeWithGrace from 'close-with-grace'
import { buildApp } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { DataDirBusyError } from './db/dir-lock.ts'
import { errorFacts } from './log-safety.ts'

async function main(): Promise<void> {
  let config
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`)
      process.exit(2)
    }
    throw err
  }
  let app
  try {
    app = await buildApp(config)
  } catch (err) {
    if (err instanceof DataDirBusyError) {
      console.error(err.message)
      process.exit(2)
    }
    throw err
  }
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error(errorFacts(err), 'closing after an error')
    else app.log.info({ signal }, 'closing')
    await app.close()
  })
  await app.listen({ port: config.port, host: config.host })
}

await main()
