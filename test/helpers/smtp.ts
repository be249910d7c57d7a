// A real SMTP server in the test process (smtp-server), with optional AUTH and STARTTLS, whose answers a
// test can script, and which parses what it receives with mailparser.
import { createServer, type AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer, type SMTPServerOptions } from 'smtp-server'

export type Rejection = { code: number, message: string } | null

export type Received = { raw: string, parsed: ParsedMail, envelopeTo: string[] }

export type TestSmtp = {
  port: number
  /** An SMTP_URL for the service. */
  url: string
  received: Received[]
  /** Answer for each RCPT TO (default: accept). */
  onRcpt: (address: string) => Rejection
  /** Answer at the end of DATA (default: accept). */
  onData: () => Rejection
  /** Delay before answering RCPT TO: a slow provider, and a window in which a sender can die before DATA. */
  rcptDelayMs: number
  start(): Promise<void>
  stop(): Promise<void>
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>
}

export type SmtpOptions = { auth?: { user: string, pass: string }, starttls?: boolean }

export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  const port = (probe.address() as AddressInfo).port
  await new Promise<void>((r) => probe.close(() => r()))
  return port
}

function reject(r: Rejection): Error | undefined {
  if (!r) return undefined
  return Object.assign(new Error(r.message), { responseCode: r.code })
}

export async function createTestSmtp(opts: SmtpOptions = {}, port?: number): Promise<TestSmtp> {
  let server: SMTPServer | undefined
  const smtp: TestSmtp = {
    port: port ?? await freePort(),
    url: '',
    received: [],
    onRcpt: () => null,
    onData: () => null,
    rcptDelayMs: 0,
    async start() {
      const disabled = [...(opts.starttls ? [] : ['STARTTLS']), ...(opts.auth ? [] : ['AUTH'])]
      const options: SMTPServerOptions = {
        logger: false,
        disabledCommands: disabled,
        authOptional: !opts.auth,
        allowInsecureAuth: !opts.starttls,
        onAuth(auth, _session, cb) {
          if (auth.username === opts.auth?.user && auth.password === opts.auth?.pass) cb(null, { user: auth.username })
          else cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }))
        },
        onRcptTo(address, _session, cb) {
          setTimeout(() => cb(reject(smtp.onRcpt(address.address))), smtp.rcptDelayMs)
        },
        onData(stream, session, cb) {
          const chunks: Buffer[] = []
          stream.on('data', (c: Buffer) => chunks.push(c))
          stream.on('end', () => {
            const rejection = smtp.onData()
            if (rejection) return cb(reject(rejection))
            const raw = Buffer.concat(chunks).toString('utf8')
            simpleParser(raw).then((parsed) => {
              smtp.received.push({ raw, parsed, envelopeTo: session.envelope.rcptTo.map((r) => r.address) })
              cb()
            }, cb)
          })
        },
      }
      server = new SMTPServer(options)
      await new Promise<void>((resolve, rejectListen) => {
        server!.once('error', rejectListen)
        server!.listen(smtp.port, '127.0.0.1', () => resolve())
      })
    },
    async stop() {
      if (!server) return
      const s = server
      server = undefined
      await new Promise<void>((r) => s.close(() => r()))
    },
    async waitFor(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs
      while (smtp.received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${smtp.received.length}`)
        await new Promise((r) => setTimeout(r, 50))
      }
      return smtp.received
    },
  }
  const auth = opts.auth ? `${encodeURIComponent(opts.auth.user)}:${encodeURIComponent(opts.auth.pass)}@` : ''
  // The test server's certificate is self-signed.
  const tls = opts.starttls ? '?requireTLS=true&tls.rejectUnauthorized=false' : '?ignoreTLS=true'
  smtp.url = `smtp://${auth}127.0.0.1:${smtp.port}/${tls}`
  return smtp
}
