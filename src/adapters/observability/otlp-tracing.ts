import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { IntegratorConfig } from '../../config/types.js';
import type { Span, SpanAttributes, Tracing } from '../../ports/observability.js';
import type { PartnerSender } from '../../ports/partner.js';

/**
 * OpenTelemetry spans of the service's own work, exported in batches over OTLP/HTTP (JSON
 * bodies) to `<endpoint>/v1/traces`. Each span is
 * the child of the W3C traceparent it is given — the integrator's request for the intake, the
 * transaction's trace for scheme calls and deliveries — so the integrator's trace continues
 * through the service. Only built when telemetry is configured; otherwise NO_TRACING.
 */
export interface OtlpTracing extends Tracing {
  /** Export what is buffered and stop. */
  shutdown(): Promise<void>;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
/** Spans are exported at least this often (the SDK's default is 5 s). */
const EXPORT_DELAY_MS = 1_000;

export function otlpTracing(options: { readonly endpoint: string; readonly serviceName: string; readonly instanceId: string }): OtlpTracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName, 'service.instance.id': options.instanceId }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces` }), { scheduledDelayMillis: EXPORT_DELAY_MS })],
  });
  const tracer = provider.getTracer('regpay');
  return {
    start: (name, kind, parent, attributes) => startSpan(tracer, name, kind === 'server' ? SpanKind.SERVER : SpanKind.CLIENT, parent, attributes),
    shutdown: () => provider.shutdown(),
  };
}

function startSpan(tracer: Tracer, name: string, kind: SpanKind, parent: string | null, attributes: SpanAttributes): Span {
  const match = parent === null ? null : TRACEPARENT.exec(parent);
  const context =
    match === null
      ? ROOT_CONTEXT
      : trace.setSpanContext(ROOT_CONTEXT, { traceId: match[1] ?? '', spanId: match[2] ?? '', traceFlags: parseInt(match[3] ?? '0', 16) & TraceFlags.SAMPLED, isRemote: true });
  const span = tracer.startSpan(name, { kind, attributes }, context);
  const own = span.spanContext();
  return {
    traceparent: `00-${own.traceId}-${own.spanId}-${own.traceFlags.toString(16).padStart(2, '0')}`,
    end(failure) {
      if (failure !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
      span.end();
    },
  };
}

/** Each delivery attempt a span under the message's trace; the integrator is sent that span as its parent. */
export function tracingSender(sender: PartnerSender, tracing: Tracing): PartnerSender {
  return {
    async send(message, integrator: IntegratorConfig, options = {}) {
      const span = tracing.start(`deliver ${message.channel}`, 'client', message.headers['traceparent'] ?? null, {
        'regpay.integrator': integrator.id,
        'regpay.channel': message.channel,
        'regpay.outbox_id': message.id,
      });
      const result = await sender.send(message, integrator, span.traceparent === undefined ? options : { ...options, traceparent: span.traceparent });
      span.end(result.delivered ? undefined : (result.error ?? `HTTP ${String(result.httpStatus)}`));
      return result;
    },
    async call(call, integrator: IntegratorConfig, options = {}) {
      const span = tracing.start('call integrator', 'client', call.headers['traceparent'] ?? null, { 'regpay.integrator': integrator.id, 'regpay.call_id': call.id });
      const result = await sender.call(call, integrator, span.traceparent === undefined ? options : { ...options, traceparent: span.traceparent });
      span.end(result.delivered ? undefined : (result.error ?? `HTTP ${String(result.httpStatus)}`));
      return result;
    },
    close: () => sender.close(),
  };
}
