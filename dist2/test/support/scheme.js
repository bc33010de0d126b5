import { randomUUID } from 'node:crypto';
import { moneyOf } from '../../src/domain/messages/validate.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { ReportRecorder } from './inbound.js';
/** Test helpers for connectors: transfers as the engine hands them over, and an inbound side that records reports. */
/** A valid transfer for `scheme` (its fixture), as the engine builds it: key = a transaction id, amount from the message. */
export function outboundTransfer(scheme, change = () => undefined) {
    const message = creditTransfer(scheme);
    change(message);
    const amount = moneyOf(message.amounts.bankSettlementAmount);
    return {
        transactionId: randomUUID(),
        integratorId: 'demo-bank',
        scheme,
        uetr: message.transactionIdentifiers.uetr.toLowerCase(),
        idempotencyKey: randomUUID(),
        message,
        amount,
        traceparent: null,
    };
}
/** The same transfer with the creditor account number set to `value` (a simulator test value). */
export function toAccount(scheme, value) {
    return outboundTransfer(scheme, (message) => {
        message.creditorAccount = { ...message.creditorAccount, identification: { schema: 'GENERIC', value } };
    });
}
export function withAmount(transfer, minor, currency = transfer.amount.currency) {
    return { ...transfer, amount: { currency, minor } };
}
/** Records every report; `next()` waits for the next one (or fails after a bounded wait). */
export class RecordingInbound extends ReportRecorder {
    /** When set, receive() rejects this many times first (a receiver that cannot record yet). */
    failuresLeft = 0;
    receive(report) {
        if (this.failuresLeft > 0) {
            this.failuresLeft -= 1;
            return Promise.reject(new Error('not recorded'));
        }
        return super.receive(report);
    }
    /** Resolves once `count` reports have arrived; rejects after `timeoutMs`. */
    async waitFor(count, timeoutMs = 2_000) {
        await this.until(() => this.reports.length >= count, () => `expected ${count} scheme report(s) within ${timeoutMs} ms, got ${this.reports.length}`, timeoutMs);
        return this.reports.slice(0, count);
    }
    /** The reports about one transfer. */
    about(transfer) {
        return this.reports.filter((report) => report.idempotencyKey === transfer.idempotencyKey);
    }
    /** Waits until `count` reports about `transfer` have arrived. */
    async waitForTransfer(transfer, count = 1, timeoutMs = 2_000) {
        const deadline = Date.now() + timeoutMs;
        while (this.about(transfer).length < count) {
            const left = deadline - Date.now();
            if (left <= 0)
                throw new Error(`expected ${count} report(s) about ${transfer.uetr} within ${timeoutMs} ms, got ${this.about(transfer).length}`);
            await this.waitFor(this.reports.length + 1, left).catch(() => undefined);
        }
        return this.about(transfer).slice(0, count);
    }
}
export function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
//# sourceMappingURL=scheme.js.map