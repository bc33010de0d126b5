/**
 * What the intake benchmarks send: the credit-transfer intake path, and autocannon's request for
 * it, every request a new transfer (new message id and uetr, so no duplicate shortcuts) with the
 * test integrator's credentials.
 */
import type { RequestSpec } from 'autocannon';
import { creditTransfer } from '../test/fixtures/credit-transfer.js';
import { basicAuth } from '../test/support/server.js';

export const INTAKE_PATH = '/api/v1/transactions/outbound/credit-transfer';

export function intakeRequests(): RequestSpec[] {
  return [
    {
      method: 'POST',
      path: INTAKE_PATH,
      headers: { 'content-type': 'application/json', authorization: basicAuth() },
      setupRequest: (request) => ({ ...request, body: JSON.stringify(creditTransfer('ZA_RPP')) }),
    },
  ];
}
