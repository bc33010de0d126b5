import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
/** Spans are exported at least this often (the SDK's default is 5 s). */
const EXPORT_DELAY_MS = 1_000;
export function otlpTracing(options) {
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
function startSpan(tracer, name, kind, parent, attributes) {
    const match = parent === null ? null : TRACEPARENT.exec(parent);
    const context = match === null
        ? ROOT_CONTEXT
        : trace.setSpanContext(ROOT_CONTEXT, { traceId: match[1] ?? '', spanId: match[2] ?? '', traceFlags: parseInt(match[3] ?? '0', 16) & TraceFlags.SAMPLED, isRemote: true });
    const span = tracer.startSpan(name, { kind, attributes }, context);
    const own = span.spanContext();
    return {
        traceparent: `00-${own.traceId}-${own.spanId}-${own.traceFlags.toString(16).padStart(2, '0')}`,
        end(failure) {
            if (failure !== undefined)
                span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
            span.end();
        },
    };
}
/** Each delivery attempt a span under the message's trace; the integrator is sent that span as its parent. */
export function tracingSender(sender, tracing) {
    return {
        async send(message, integrator, options = {}) {
            const span = tracing.start(`deliver ${message.channel}`, 'client', message.headers['traceparent'] ?? null, {
                'regpay.integrator': integrator.id,
                'regpay.channel': message.channel,
                'regpay.outbox_id': message.id,
            });
            const result = await sender.send(message, integrator, span.traceparent === undefined ? options : { ...options, traceparent: span.traceparent });
            span.end(result.delivered ? undefined : (result.error ?? `HTTP ${String(result.httpStatus)}`));
            return result;
        },
        async call(call, integrator, options = {}) {
            const span = tracing.start('call integrator', 'client', call.headers['traceparent'] ?? null, { 'regpay.integrator': integrator.id, 'regpay.call_id': call.id });
            const result = await sender.call(call, integrator, span.traceparent === undefined ? options : { ...options, traceparent: span.traceparent });
            span.end(result.delivered ? undefined : (result.error ?? `HTTP ${String(result.httpStatus)}`));
            return result;
        },
        close: () => sender.close(),
    };
}
//# sourceMappingURL=otlp-tracing.js.map