import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { identifierDetermination } from '../fixtures/identifier-determination.js';
import { requestToPay } from '../fixtures/request-to-pay.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { configFromObject } from '../../src/config/load.js';
import { buildApp } from '../../src/http/app.js';
import type { SchemeRules } from '../../src/ports/scheme.js';
import { intakeApp } from '../support/intake-app.js';
import { basicAuth, testConfigObject } from '../support/server.js';

/**
 * Nothing accepted that intake could have refused (issue #27 §3): what depends on the message alone
 * is answered before the 202 — a uetr that is no version-4 UUID (400), a rule of the scheme or a
 * field its message cannot carry (422 SCHEME_REFUSES naming the field and the scheme) — instead of
 * a 202 followed by the connector's rejection (FF02, CH21, AM03...).
 */

interface ErrorDetail {
  readonly message: string;
  readonly detail?: string;
  readonly errors: ReadonlyArray<{ readonly field: string; readonly message: string }>;
}

/** A UUID of version 7 (time-ordered): a UUID, but not the UUIDv4Identifier ISO 20022 and SWIFT define the UETR as. */
const UUID_V7 = '018f2b7c-5b9e-7d7a-9f0e-2b8c6d4e1a90';

void describe('intake refuses what the scheme would have rejected for the message alone', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;

  before(async () => {
    ({ app, close } = await intakeApp());
  });
  after(() => close());

  const post = async (path: string, body: unknown) => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: { 'content-type': 'application/json', authorization: basicAuth() },
      payload: JSON.stringify(body),
    });
    return { status: response.statusCode, detail: (response.body === '' ? { message: '', errors: [] } : response.json<ErrorDetail>()) };
  };
  const CREDIT_TRANSFER = '/transactions/outbound/credit-transfer';

  void it('answers 400 naming the uetr when it is not a version-4 UUID, for each message that starts a transaction', async () => {
    const transfer = creditTransfer('ZA_RTC');
    transfer.transactionIdentifiers.uetr = UUID_V7;
    const lookup = identifierDetermination('MOBILE');
    lookup.request.uetr = UUID_V7;
    const request = requestToPay('MOBILE');
    request.transactionIdentifiers.uetr = UUID_V7;
    for (const [path, body, field] of [
      [CREDIT_TRANSFER, transfer, '/transactionIdentifiers/uetr'],
      ['/identifiers/outbound/identifier-determination', lookup, '/request/uetr'],
      ['/transactions/outbound/request-to-pay', request, '/transactionIdentifiers/uetr'],
    ] as const) {
      const { status, detail } = await post(path, body);
      assert.equal(status, 400, JSON.stringify(detail));
      assert.deepEqual(detail.errors.map((error) => error.field), [field]);
      assert.match(detail.errors[0]?.message ?? '', /version-4 UUID/);
    }
  });

  void it('answers 422 naming the field and the scheme for a debtor or creditor without legalName or knownAsName', async () => {
    for (const party of ['debtor', 'creditor'] as const) {
      const transfer = creditTransfer('ZA_EFT');
      transfer[party] = { countryOfResidence: 'ZA' };
      const { status, detail } = await post(CREDIT_TRANSFER, transfer);
      assert.equal(status, 422, JSON.stringify(detail));
      assert.deepEqual(detail.errors.map((error) => error.field), [`/${party}/legalName`]);
      assert.match(detail.detail ?? '', /ZA_EFT.*CH21/);
    }
    const request = requestToPay('MOBILE');
    request.debtor = {};
    const { status, detail } = await post('/transactions/outbound/request-to-pay', request);
    assert.equal(status, 422, JSON.stringify(detail));
    assert.deepEqual(detail.errors.map((error) => error.field), ['/debtor/legalName']);
  });

  void it("answers 422 for every rule of the scheme's that the message alone breaks, naming its field", async () => {
    const usd = creditTransfer('ZA_RTC');
    usd.amounts.bankSettlementAmount = { currency: 'USD', value: 10 };
    const proxyOnly = creditTransfer('ZA_RTC');
    proxyOnly.creditorAccount = { proxy: { schema: 'MOBILE', namespace: 'ZA_MOBILE', value: '0831234567' } };
    const noBic = creditTransfer('TCIB');
    delete noBic.creditorAgent.bicfi;
    const latin = creditTransfer('CBPR_PLUS');
    latin.creditor = { legalName: 'Zoë Čapek' };
    for (const [body, field, code] of [
      [usd, '/amounts/bankSettlementAmount/currency', 'AM03'],
      [proxyOnly, '/creditorAccount/identification/value', 'AC03'],
      [noBic, '/creditorAgent/bicfi', 'RC07'],
      [latin, '/creditor/legalName', 'RR10'],
    ] as const) {
      const { status, detail } = await post(CREDIT_TRANSFER, body);
      assert.equal(status, 422, JSON.stringify(detail));
      assert.deepEqual(detail.errors.map((error) => error.field), [field]);
      assert.match(detail.detail ?? '', new RegExp(`${body.paymentScheme.schema}.*${code}`));
    }
  });

  void it('answers 422 naming the field and CBPR_PLUS for what only SplmtryData could carry, and 202 for the same data on ZA_RTC', async () => {
    const cbpr = creditTransfer('CBPR_PLUS');
    cbpr.supplementaryData = { invoice: 'INV-7' };
    const { status, detail } = await post(CREDIT_TRANSFER, cbpr);
    assert.equal(status, 422, JSON.stringify(detail));
    assert.deepEqual(detail.errors.map((error) => error.field), ['/supplementaryData/invoice']);
    assert.match(detail.detail ?? '', /CBPR_PLUS.*CH17/);
    const rtc = creditTransfer('ZA_RTC');
    rtc.supplementaryData = { invoice: 'INV-7' };
    assert.equal((await post(CREDIT_TRANSFER, rtc)).status, 202);
  });

  void it("answers 422 naming the field and CBPR_PLUS for a debtor's everyday name beside another legal name (one Nm), and 202 for the same on ZA_RTC", async () => {
    const cbpr = creditTransfer('CBPR_PLUS');
    cbpr.debtor = { ...cbpr.debtor, knownAsName: 'Vaal Mining' };
    const { status, detail } = await post(CREDIT_TRANSFER, cbpr);
    assert.equal(status, 422, JSON.stringify(detail));
    assert.deepEqual(detail.errors.map((error) => error.field), ['/debtor/knownAsName']);
    assert.match(detail.detail ?? '', /CBPR_PLUS.*CH17/);
    const rtc = creditTransfer('ZA_RTC');
    rtc.debtor = { ...rtc.debtor, knownAsName: 'Jan Botha' };
    assert.equal((await post(CREDIT_TRANSFER, rtc)).status, 202);
  });

  void it('answers a retry of an accepted message as the first time (202) even when the scheme now refuses its content, and refuses a new message id with the same content', async () => {
    const { store, close: closeStore } = await intakeApp();
    const refusing: SchemeRules = {
      check: () => ({ ok: false, reasonCode: 'AM02', reasonText: 'Amount above the maximum', field: '/amounts/bankSettlementAmount/amount' }),
      checkLookup: () => ({ ok: true }),
      checkRequestToPay: () => ({ ok: true }),
    };
    const config = await configFromObject(testConfigObject({ database: 'sqlite::memory:' }));
    const before = await buildApp({ config, store, clock: systemClock, ids: systemIds, readiness: { accepting: () => true } });
    const afterChange = await buildApp({ config, store, clock: systemClock, ids: systemIds, readiness: { accepting: () => true }, schemeRules: () => refusing });
    try {
      const transfer = creditTransfer('ZA_RTC');
      const send = (app: FastifyInstance, body: unknown) =>
        app.inject({ method: 'POST', url: `/api/v1${CREDIT_TRANSFER}`, headers: { 'content-type': 'application/json', authorization: basicAuth() }, payload: JSON.stringify(body) });
      assert.equal((await send(before, transfer)).statusCode, 202);
      assert.equal((await send(afterChange, transfer)).statusCode, 202, 'the retry is answered as the first time');
      const fresh = creditTransfer('ZA_RTC');
      const refused = await send(afterChange, fresh);
      assert.equal(refused.statusCode, 422, refused.body);
      assert.deepEqual(
        refused.json<ErrorDetail>().errors.map((error) => error.field),
        ['/amounts/bankSettlementAmount/amount'],
      );
    } finally {
      await before.close();
      await afterChange.close();
      await closeStore();
    }
  });
});
