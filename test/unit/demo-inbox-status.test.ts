import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statusOf } from '../../src/app/demo-inbox.js';

/**
 * The demo inbox says on each message what it reports, read the same way from every message an
 * integrator is sent (docs/api.md): the outcome or status, and the ISO 20022 reason with its text.
 */
const AC04 = [{ reason: { schema: 'CODE', value: 'AC04' }, additionalInformation: ['Account closed'] }];

void describe('what a message in the demo inbox reports', () => {
  void it('reads an outcome callback or completion: status.outcome and its first reason', () => {
    assert.deepEqual(statusOf({ schema: 'PaymentStatusReport', status: { outcome: 'REJECTED', reasonInfo: AC04 } }), { status: 'REJECTED', reason: { code: 'AC04', text: 'Account closed' } });
    assert.deepEqual(statusOf({ schema: 'PaymentStatusReport', status: { outcome: 'APPROVED', reasonInfo: [] } }), { status: 'APPROVED', reason: null });
  });

  void it('reads a request-to-pay status and a cancellation answer', () => {
    assert.deepEqual(statusOf({ schema: 'RequestToPayResponse', status: { status: 'PRESENTED', reasonInfo: [] } }), { status: 'PRESENTED', reason: null });
    assert.deepEqual(statusOf({ cancellationStatus: { status: 'REJECTED', reasonInfo: [{ reason: { value: 'NOOR' } }] } }), { status: 'REJECTED', reason: { code: 'NOOR', text: null } });
  });

  void it('reads an identifier determination report', () => {
    assert.deepEqual(statusOf({ report: { reportInformation: { outcome: 'FAILED', reasonCode: 'BE23', reasonDescription: 'Proxy unknown' } } }), { status: 'FAILED', reason: { code: 'BE23', text: 'Proxy unknown' } });
  });

  void it("reads an event from its payload, and a sync call from the demo bank's answer", () => {
    assert.deepEqual(statusOf({ type: 'PAYMENT_AUTH_RESPONSE_RECEIVED', payload: { status: { outcome: 'REJECTED', reasonInfo: AC04 } } }).reason?.code, 'AC04');
    assert.deepEqual(statusOf({ schema: 'CreditTransfer' }, { status: { outcome: 'APPROVED', reasonInfo: [] } }), { status: 'APPROVED', reason: null });
  });

  void it('says nothing of a message that reports nothing, or is not JSON', () => {
    assert.deepEqual(statusOf({ schema: 'CreditTransfer' }), { status: null, reason: null });
    assert.deepEqual(statusOf('not json'), { status: null, reason: null });
  });
});
