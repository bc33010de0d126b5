import { OUTBOX_BLOCKED_AT, outboxBody } from './store-ops.js';
export function compareText(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}
function nullableNumber(value) {
    return value === null ? null : Number(value);
}
function json(value) {
    return typeof value === 'string' ? JSON.parse(value) : value;
}
/** The columns a transaction record and an operator's summary share, read the same way. */
function identityFromRow(row) {
    return {
        id: row.id,
        integratorId: row.integrator_id,
        kind: row.kind,
        uetr: row.uetr,
        scheme: row.scheme,
        messageId: row.message_id,
        state: row.state,
        amountMinor: row.amount_minor === null ? null : BigInt(row.amount_minor),
        currency: row.currency,
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
    };
}
export function transactionFromRow(row) {
    return {
        ...identityFromRow(row),
        version: Number(row.version),
        dueAt: nullableNumber(row.due_at),
        traceparent: row.traceparent,
        tracestate: row.tracestate,
        data: json(row.data),
    };
}
export function summaryFromRow(row) {
    return { ...identityFromRow(row), endToEndId: row.end_to_end_id, outcome: row.outcome, reasonCode: row.reason_code };
}
export function schemeMessageFromRow(row) {
    return {
        transactionId: row.transaction_id,
        direction: row.direction,
        messageName: row.message_name,
        messageId: row.message_id,
        at: Number(row.at),
        document: row.document,
    };
}
export function messageFromRow(row) {
    return {
        integratorId: row.integrator_id,
        messageId: row.message_id,
        transactionId: row.transaction_id,
        payloadHash: row.payload_hash,
        rawBody: row.raw_body,
        response: row.response,
        receivedAt: Number(row.received_at),
    };
}
export function historyFromRow(row) {
    return {
        transactionId: row.transaction_id,
        version: row.version,
        fromState: row.from_state,
        toState: row.to_state,
        at: Number(row.at),
        cause: row.cause,
    };
}
export function outboxFromRow(row) {
    const availableAt = Number(row.available_at);
    const nextAttemptAt = Number(row.next_attempt_at);
    return {
        id: row.id,
        transactionId: row.transaction_id,
        integratorId: row.integrator_id,
        seq: row.seq,
        channel: row.channel,
        url: row.url,
        body: outboxBody(row),
        headers: json(row.headers),
        availableAt,
        status: row.status,
        attempts: row.attempts,
        // A row waiting behind an earlier one of its queue reports when it may go at the earliest.
        nextAttemptAt: nextAttemptAt === OUTBOX_BLOCKED_AT ? availableAt : nextAttemptAt,
        createdAt: Number(row.created_at),
        deliveredAt: nullableNumber(row.delivered_at),
        lastError: row.last_error,
    };
}
export function attemptFromRow(row) {
    return {
        outboxId: row.outbox_id,
        at: Number(row.at),
        durationMs: row.duration_ms,
        httpStatus: row.http_status,
        error: row.error,
        delivered: row.delivered === true || row.delivered === 1,
    };
}
//# sourceMappingURL=store-rows.js.map