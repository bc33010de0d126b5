import { creditTransfer } from '../test/fixtures/credit-transfer.js';
import { basicAuth } from '../test/support/server.js';
export const INTAKE_PATH = '/api/v1/transactions/outbound/credit-transfer';
export function intakeRequests() {
    return [
        {
            method: 'POST',
            path: INTAKE_PATH,
            headers: { 'content-type': 'application/json', authorization: basicAuth() },
            setupRequest: (request) => ({ ...request, body: JSON.stringify(creditTransfer('ZA_RPP')) }),
        },
    ];
}
//# sourceMappingURL=intake-load.js.map