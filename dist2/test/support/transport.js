import assert from 'node:assert/strict';
/** Test helpers for a connector's transport: one that keeps what the connector sends and plays the operator's answers. */
export const DELIVERED = { kind: 'delivered' };
/** A transport that keeps what it is given and lets a test play the operator's answers. */
export class CapturingTransport {
    sent = [];
    handler;
    send(message) {
        this.sent.push(message);
        return Promise.resolve(DELIVERED);
    }
    start(handler) {
        this.handler = handler;
        return Promise.resolve();
    }
    stop() {
        this.handler = undefined;
        return Promise.resolve();
    }
    /** The operator answers with `document`; resolves once the connector has handled it. */
    answer(document) {
        assert.ok(this.handler, 'connector started');
        return this.handler({ document });
    }
}
/** An outcome without the message it sent (the engine keeps that for operators): what the transport did. */
export function transportOutcome(outcome) {
    const { sent: _sent, ...rest } = outcome;
    return rest;
}
//# sourceMappingURL=transport.js.map