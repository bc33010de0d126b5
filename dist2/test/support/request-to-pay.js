import { randomUUID } from 'node:crypto';
import { moneyOf } from '../../src/domain/messages/validate.js';
import { requestToPay } from '../fixtures/request-to-pay.js';
import { ReportRecorder } from './inbound.js';
/** Test helpers for request-to-pay at the scheme: requests and cancellations as the engine hands them over, and an inbound side that records their reports. */
/** The fixture request of `kind` (test/fixtures/request-to-pay.ts) as the engine hands it to a connector; `change` edits the message. */
export function outboundRequestToPay(kind = 'MOBILE', change = () => undefined) {
    const message = requestToPay(kind);
    change(message);
    return {
        transactionId: randomUUID(),
        integratorId: 'demo-bank',
        scheme: 'ZA_RPP',
        uetr: message.transactionIdentifiers.uetr.toLowerCase(),
        idempotencyKey: randomUUID(),
        message,
        amount: moneyOf(message.amounts.bankSettlementAmount),
        expiresAt: Date.parse(message.expiryDateTime),
        traceparent: null,
    };
}
/** A request whose debtor is the account number `value` (at the ACCOUNT fixture's bank). */
export function fromDebtorAccount(value) {
    return outboundRequestToPay('ACCOUNT', (message) => {
        message.debtorAccount = { ...message.debtorAccount, identification: { schema: 'GENERIC', value } };
    });
}
/** A request whose debtor is the proxy `value` (MOBILE or CUSTOM), without a debtor agent. */
export function fromDebtorProxy(value, schema = 'CUSTOM') {
    return outboundRequestToPay(schema, (message) => {
        message.debtorAccount = { proxy: { schema, namespace: schema === 'MOBILE' ? 'ZA_MOBILE' : 'ZA_CUSTOM', value } };
        delete message.debtorAgent;
    });
}
/** A cancellation of `request` with a fresh cancellation key. */
export function cancellationOf(request, reasonCode = 'CUST') {
    return { request, cancellationKey: randomUUID(), reasonCode };
}
/** Records every report; request-to-pay and cancellation reports are found by the request they are about. */
export class RequestToPayInbound extends ReportRecorder {
    statusesOf(request) {
        return this.reports.filter((report) => report.kind === 'request_to_pay' && report.idempotencyKey === request.idempotencyKey);
    }
    cancellationsOf(request) {
        return this.reports.filter((report) => report.kind === 'cancellation' && report.idempotencyKey === request.idempotencyKey);
    }
    /** Resolves once `count` status reports about `request` have arrived; rejects after `timeoutMs`. */
    async statuses(request, count, timeoutMs = 2_000) {
        await this.until(() => this.statusesOf(request).length >= count, () => `expected ${count} request-to-pay report(s), got ${this.statusesOf(request).length} within ${timeoutMs} ms`, timeoutMs);
        return this.statusesOf(request).slice(0, count);
    }
    /** Resolves once `count` cancellation reports about `request` have arrived; rejects after `timeoutMs`. */
    async cancellations(request, count = 1, timeoutMs = 2_000) {
        await this.until(() => this.cancellationsOf(request).length >= count, () => `expected ${count} cancellation report(s), got ${this.cancellationsOf(request).length} within ${timeoutMs} ms`, timeoutMs);
        return this.cancellationsOf(request).slice(0, count);
    }
}
//# sourceMappingURL=request-to-pay.js.map