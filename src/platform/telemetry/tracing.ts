// OpenTelemetry tracing, exported over OTLP/HTTP (JSON) to OTEL_EXPORTER_OTLP_ENDPOINT: a span for each request
// (joined to the caller's W3C traceparent), each PostgreSQL query (pg), each Redis command (ioredis) and each
// message sent (nodemailer, which has no official instrumentation: its sendMail is wrapped here).
//
// Imported only when the variable is set (src/main.ts, before the app's modules load): without it no
// OpenTelemetry module is read at all. pg and ioredis are patched as they are imported: CommonJS requires
// through require-in-the-middle, ES module imports through import-in-the-middle's loader hook, registered
// here for exactly the modules an instrumentation asked for (every other import runs as before). The
// exporter's own settings (OTEL_EXPORTER_OTLP_HEADERS, OTEL_BSP_SCHEDULE_DELAY…) are read by the SDK from the
// environment as documented upstream; the service's name is a setting (src/platform/telemetry/settings.ts).
import { register } from 'node:module'
import { SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { registerInstrumentations } from '@opentelemetry/instrumentation'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis'
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { createAddHookMessageChannel } from 'import-in-the-middle'
import { withoutSecrets } from '../http/secret-path.ts'
import { setSpanSource } from '../http/trace-context.ts'

export type Tracing = { shutdown(): Promise<void> }

export async function startTracing(build: { versao: string, commit: string }, serviceName: string): Promise<Tracing> {
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel()
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions)

  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': serviceName,
      ...(build.versao ? { 'service.version': build.versao } : {}),
      ...(build.commit ? { 'vcs.ref.head.revision': build.commit } : {}),
    }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  })
  // The global provider, AsyncLocalStorage context and the W3C propagator: instrumentations find them there.
  provider.register()
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Probes and scrapes (the metrics listener is in this process too) every few seconds would bury the rest.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => /^\/(api\/health(\/ready)?|metrics)(\?|$)/.test(req.url ?? ''),
        // A secret carried in a path (a sacado's confirmation link) never reaches the collector: the span's URL attributes
        // are the path without it (the access log's rule), and without the query.
        requestHook: (span, req) => {
          const incoming = req as { url?: unknown, headers?: Record<string, unknown> }
          if (typeof incoming.url !== 'string' || !incoming.headers) return
          const path = withoutSecrets(incoming.url.split('?')[0]!)
          span.setAttribute('http.target', path)
          span.setAttribute('url.path', path)
          span.setAttribute('http.url', `http://${String(incoming.headers.host ?? 'localhost')}${path}`)
        },
      }),
      // Statement text only (parameterized: values, personal data among them, are never attached). Only inside a
      // traced request or send: the status snapshot's and the worker's polls every few seconds would be most spans.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
      new IORedisInstrumentation(),
    ],
  })
  await waitForAllMessagesAcknowledged()
  const tracer = provider.getTracer('factoring-public-service')
  await traceNodemailer(tracer)
  // The ids the logs and `traceresponse` carry are those of the exported server span.
  setSpanSource(() => {
    const span = trace.getActiveSpan()?.spanContext()
    return span ? { traceId: span.traceId, spanId: span.spanId, flags: span.traceFlags.toString(16).padStart(2, '0') } : undefined
  })
  return {
    async shutdown() {
      setSpanSource(undefined)
      await provider.shutdown() // exports what is still batched
    },
  }
}

type Mailer = { transporter?: { name?: string }, sendMail(mail: object, callback?: unknown): unknown }
type MailerClass = { prototype: Mailer }

/**
 * One client span per message, around nodemailer's Mailer.prototype.sendMail (what both the SMTP and the sandbox
 * transports call). Its attributes name the transport only: addresses and subjects are visitors' personal data.
 * Imported here (the same ES module the lazily imported nodemailer imports later), its class is the one the app uses.
 */
async function traceNodemailer(tracer: Tracer): Promise<void> {
  const mailer = (await import('nodemailer/lib/mailer')).default as unknown as MailerClass
  const send = mailer.prototype.sendMail
  mailer.prototype.sendMail = function (this: Mailer, mail: object, callback?: unknown) {
    if (callback) return send.call(this, mail, callback)
    return tracer.startActiveSpan('mail send', { kind: SpanKind.CLIENT, attributes: { 'mail.transport': this.transporter?.name ?? 'unknown' } }, (span) =>
      (send.call(this, mail) as Promise<unknown>).then(
        (info) => { span.end(); return info },
        (err: unknown) => {
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as { code?: string }).code ?? 'send failed' })
          span.end()
          throw err
        },
      ))
  }
}
