// Tracing's settings. Declared here, apart from tracing.ts, so reading them loads no OpenTelemetry module.
import { text, url } from '../settings/kinds.ts'

export const TELEMETRY_SETTINGS = {
  otelEndpoint: url('OTEL_EXPORTER_OTLP_ENDPOINT', {
    protocols: ['http:', 'https:'], unset: 'off', description: 'the OTLP/HTTP collector traces are exported to; the SDK\'s other OTEL_* variables apply',
  }),
  otelServiceName: text('OTEL_SERVICE_NAME', { default: 'factoring-public-service', description: 'the traces\' service.name' }),
}
