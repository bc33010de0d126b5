import { randomUUID } from 'node:crypto';
import { identifierDetermination } from '../fixtures/identifier-determination.js';
import { ReportRecorder } from './inbound.js';
/**
 * The fixture request of the identifier's schema (test/fixtures/identifier-determination.ts) with
 * the identifier replaced, as the engine hands it to a connector; `change` edits the request.
 */
export function outboundLookup(identifier, change = () => undefined) {
    const message = identifierDetermination(identifier.schema);
    const { request } = message;
    request.identifier = { schema: identifier.schema, value: identifier.value, ...(identifier.namespace === undefined ? {} : { namespace: identifier.namespace }) };
    if (identifier.accountAgentBicfi !== undefined)
        request.accountAgent = { bicfi: identifier.accountAgentBicfi };
    change(request);
    const scheme = 'ZA_RPP';
    return { transactionId: randomUUID(), integratorId: 'demo-bank', scheme, uetr: request.uetr.toLowerCase(), idempotencyKey: randomUUID(), message, traceparent: null };
}
export const mobile = (value, namespace = 'ZA_MOBILE') => ({ schema: 'MOBILE', namespace, value });
export const shapId = (value, namespace = 'ZA_CUSTOM') => ({ schema: 'CUSTOM', namespace, value });
export const account = (value, accountAgentBicfi = 'FIRNZAJJ') => ({ schema: 'GENERIC', value, accountAgentBicfi });
/** Records every report; identification reports are found by their lookup's idempotency key. */
export class IdentificationInbound extends ReportRecorder {
    about(lookup) {
        return this.reports.filter((report) => report.kind === 'identification' && report.idempotencyKey === lookup.idempotencyKey);
    }
    /** Resolves once `count` reports about `lookup` have arrived; rejects after `timeoutMs`. */
    async waitFor(lookup, count = 1, timeoutMs = 2_000) {
        await this.until(() => this.about(lookup).length >= count, () => `expected ${count} identification report(s) about ${lookup.message.request.identifier.value} within ${timeoutMs} ms, got ${this.about(lookup).length}`, timeoutMs);
        return this.about(lookup).slice(0, count);
    }
}
//# sourceMappingURL=lookup.js.map