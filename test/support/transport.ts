import assert from 'node:assert/strict';
import type { InboundHandler, SchemeMessage, SchemeTransport } from '../../src/connectors/transport.js';
import type { SubmitOutcome } from '../../src/ports/scheme.js';

/** Test helpers for a connector's transport: one that keeps what the connector sends and plays the operator's answers. */

export const DELIVERED: SubmitOutcome = { kind: 'delivered' };

/** A transport that keeps what it is given and lets a test play the operator's answers. */
export class CapturingTransport implements SchemeTransport {
  readonly sent: SchemeMessage[] = [];
  handler: InboundHandler | undefined;

  send(message: SchemeMessage): Promise<SubmitOutcome> {
    this.sent.push(message);
    return Promise.resolve(DELIVERED);
  }

  start(handler: InboundHandler): Promise<void> {
    this.handler = handler;
    return Promise.resolve();
  }

  stop(): Promise<void> {
    this.handler = undefined;
    return Promise.resolve();
  }

  /** The operator answers with `document`; resolves once the connector has handled it. */
  answer(document: string): Promise<void> {
    assert.ok(this.handler, 'connector started');
    return this.handler({ document });
  }
}

/** An outcome without the message it sent (the engine keeps that for operators): what the transport did. */
export function transportOutcome(outcome: SubmitOutcome): Omit<SubmitOutcome, 'sent'> {
  const { sent: _sent, ...rest } = outcome;
  return rest;
}
