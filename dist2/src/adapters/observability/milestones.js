import { reasonLabel } from '../metrics/prometheus.js';
/**
 * A transaction's story, told to operators (docs/operations.md): one `info` line per milestone
 * (accepted, submitted, scheme answer, outcome, callback delivered or failed), each carrying the
 * uetr, integrator, scheme, kind, trace id and internal id, and the counters that go with it.
 * Only identifiers, states, message names and reason codes are logged: never a message body, so
 * never an account number, a name or a secret.
 */
export function transactionMilestones(log, metrics, knownReason) {
    const line = (transaction, milestone, details, message) => {
        log.info({ milestone, ...subject(transaction), ...details }, message);
    };
    return {
        accepted(transaction) {
            metrics?.statesEntered.inc({ kind: transaction.kind, scheme: transaction.scheme, state: transaction.state });
            line(transaction, 'accepted', { state: transaction.state }, 'transaction accepted');
        },
        statesEntered(transaction, states) {
            if (metrics === undefined)
                return;
            for (const state of states) {
                metrics.statesEntered.inc({ kind: transaction.kind, scheme: transaction.scheme, state });
                // CONTRACT §4: *_TIMEOUT is entered when the scheme's time budget is spent.
                if (state.endsWith('_TIMEOUT'))
                    metrics.timeBudgetsSpent.inc({ kind: transaction.kind, scheme: transaction.scheme });
            }
        },
        transitionRefused(transaction, refused) {
            metrics?.transitionsRefused.inc({ kind: transaction.kind });
            log.warn({ ...subject(transaction), state: transaction.state, refused }, 'engine: illegal transition refused, not reported');
        },
        submitted(transaction, command, outcome) {
            metrics?.schemeSends.inc({ scheme: transaction.scheme, command, result: outcome.kind });
            line(transaction, 'submitted', { command, ...sentDetails(outcome) }, outcome.kind === 'delivered' ? 'scheme message sent' : 'scheme message not taken by the transport');
        },
        answered(transaction, report) {
            line(transaction, 'scheme_answer', answerDetails(report), 'scheme answered');
        },
        decided(transaction, outcome, at) {
            if (metrics !== undefined) {
                const labels = { kind: transaction.kind, scheme: transaction.scheme };
                metrics.outcomes.inc({ ...labels, outcome: outcome.outcome, reason: reasonLabel(outcome.reasonCode, knownReason) });
                metrics.outcomeSeconds.observe(labels, Math.max(0, at - transaction.createdAt) / 1000);
            }
            line(transaction, 'outcome', { outcome: outcome.outcome, reasonCode: outcome.reasonCode, sinceAcceptedMs: at - transaction.createdAt }, 'transaction outcome decided');
        },
        callback(transaction, outboxId, delivered) {
            line(transaction, delivered ? 'callback_delivered' : 'callback_failed', { outboxId }, delivered ? 'callback delivered' : 'callback delivery attempt failed');
        },
    };
}
function subject(transaction) {
    return {
        uetr: transaction.uetr,
        integratorId: transaction.integratorId,
        scheme: transaction.scheme,
        kind: transaction.kind,
        transactionId: transaction.id,
        traceId: transaction.traceparent?.split('-')[1] ?? null,
    };
}
function sentDetails(outcome) {
    return {
        result: outcome.kind,
        ...(outcome.sent === undefined ? {} : { message: outcome.sent.messageName, messageId: outcome.sent.messageId }),
        ...(outcome.kind === 'failed' ? { error: outcome.error, retryable: outcome.retryable } : {}),
    };
}
/** What the scheme said, in its own terms: a status, an identification outcome, a request-to-pay status, a cancellation's answer. */
function answerDetails(report) {
    const reason = 'reasonCode' in report && report.reasonCode !== undefined ? { reasonCode: report.reasonCode } : {};
    const message = report.received === undefined ? {} : { message: report.received.messageName, messageId: report.received.messageId };
    switch (report.kind) {
        case 'identification':
            return { answer: report.outcome, ...reason, ...message };
        case 'cancellation':
            return { answer: report.accepted ? 'CANCELLATION_ACCEPTED' : 'CANCELLATION_REFUSED', ...reason, ...message };
        case 'withdrawal':
            return { answer: 'WITHDRAWN', reasonCode: report.reasonCode, ...message };
        default:
            return { answer: report.kind === 'not_found' ? 'NOT_FOUND' : report.status, ...reason, ...message };
    }
}
//# sourceMappingURL=milestones.js.map