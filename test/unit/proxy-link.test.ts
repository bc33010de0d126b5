import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { linkUnlessRetry, paysProxy } from '../../src/app/proxy-link.js';
import type { IntegratorConfig } from '../../src/config/types.js';
import { ApiError } from '../../src/domain/errors.js';
import type { Determination } from '../../src/domain/machines/identifier-determination.js';
import type { CreditTransfer } from '../../src/domain/messages/credit-transfer.js';
import { lookupKey } from '../../src/domain/messages/identifier-determination.js';
import { validateCreditTransfer, type ValidCreditTransfer } from '../../src/domain/messages/validate.js';
import type { Store } from '../../src/ports/store.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { ManualClock } from '../support/auth-app.js';
import { integratorConfig, memoryStore } from '../support/delivery.js';

/**
 * The proxy-link rule (CONTRACT, PayShap): a ZA_RPP payment to a proxy is linked to this
 * integrator's successful determination of that proxy at the payment's creditor agent within the
 * validity window, the one with the payment's uetr first, else the newest; without one it is
 * refused unless the requirement is off. On the real SQLite store (the store's half of the
 * filter runs on both stores in test/contract/store.contract.ts).
 */
const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const VALIDITY_MS = 600_000;
const PROXY = { namespace: 'ZA_MOBILE', schema: 'MOBILE', value: '+27-0821234567' } as const;
const KEY = lookupKey('ZA_RPP', { schema: 'MOBILE', namespace: 'ZA_MOBILE', value: PROXY.value });

function payment(change: (message: CreditTransfer) => void = () => undefined): ValidCreditTransfer {
  const body = creditTransfer('ZA_RPP');
  change(body);
  const valid = validateCreditTransfer(JSON.parse(JSON.stringify(body)));
  assert.ok(valid.ok, valid.ok ? '' : JSON.stringify(valid));
  return valid.value;
}

void describe('linking a payment to a proxy to its identifier determination', () => {
  let store: Store;
  let integrator: IntegratorConfig;
  const clock = new ManualClock(T0);

  before(async () => {
    store = await memoryStore();
    integrator = await integratorConfig('bank-a', 'http://127.0.0.1:9');
  });
  after(async () => store.close());

  const deps = (determinationRequired = true) => ({ store, clock, proxyPayments: { determinationRequired, determinationValidityMs: VALIDITY_MS } });

  /** A determination of the proxy stored `ageMs` before now, with this outcome. */
  async function determined(determination: Determination | undefined, options: { ageMs?: number; integratorId?: string; key?: string; uetr?: string } = {}): Promise<{ id: string; uetr: string }> {
    const id = randomUUID();
    const uetr = options.uetr ?? randomUUID();
    const messageId = `MSG${randomUUID().replaceAll('-', '').slice(0, 20)}`;
    const rawBody = JSON.stringify({ schema: 'IdentifierDetermination', messageId });
    const result = await store.intake({
      id,
      integratorId: options.integratorId ?? 'bank-a',
      kind: 'IDENTIFIER_DETERMINATION',
      uetr,
      scheme: 'ZA_RPP',
      messageId,
      payloadHash: `hash-of-${rawBody}`,
      rawBody,
      amountMinor: null,
      currency: null,
      state: 'IDENTIFIER_DETERMINATION_REQUEST_RECEIVED',
      receivedAt: clock.now() - (options.ageMs ?? 1_000),
      dueAt: null,
      traceparent: null,
      tracestate: null,
      lookupKey: options.key ?? KEY,
      data: { mode: 'sync', ...(determination === undefined ? {} : { determination }) },
      outbox: [],
    });
    assert.equal(result.kind, 'accepted');
    return { id, uetr };
  }

  const successful = (account: string, bank = 'FIRNZAJJXXX'): Determination => ({ outcome: 'SUCCESSFUL', account: { traditionalIdentifier: account, accountAgentBicfi: bank } });

  const refused = async (transfer: ValidCreditTransfer, message: RegExp): Promise<void> => {
    await assert.rejects(linkUnlessRetry(deps(), integrator, transfer), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, 'IDENTIFIER_NOT_DETERMINED');
      assert.equal(
        error.detail,
        'no successful identifier determination of this proxy by this integrator in the last 600 s: ' +
          'POST /api/v1/identifiers/outbound/identifier-determination first, show the known-as name to the sender, then pay',
      );
      assert.deepEqual(
        error.errors.map((item) => item.field),
        ['/creditorAccount/proxy'],
      );
      assert.match(error.errors[0]?.message ?? '', message);
      return true;
    });
  };

  void it('applies to ZA_RPP payments to a proxy only', () => {
    assert.equal(paysProxy(payment()), true);
    assert.equal(paysProxy(payment((body) => (body.creditorAccount = { identification: { schema: 'GENERIC', value: '1234567890' } }))), false);
    assert.equal(paysProxy(payment((body) => ((body.paymentScheme = { schema: 'ZA_RTC' }), (body.paymentTypeInformation = undefined), (body.creditorAccount = { proxy: PROXY })))), false);
  });

  void it('links nothing and asks nothing for a payment to an account, or to a proxy in another scheme', async () => {
    const transfer = payment((body) => (body.creditorAccount = { identification: { schema: 'GENERIC', value: '1234567890' } }));
    assert.equal(await linkUnlessRetry(deps(), integrator, transfer), undefined);
    const otherScheme = payment((body) => ((body.paymentScheme = { schema: 'ZA_RTC' }), (body.paymentTypeInformation = undefined), (body.creditorAccount = { proxy: { ...PROXY, value: '+27-0829999998' } })));
    assert.equal(await linkUnlessRetry(deps(), integrator, otherScheme), undefined);
  });

  void it('refuses a payment to a proxy nobody determined, and lets it through when the requirement is off', async () => {
    const transfer = payment((body) => (body.creditorAccount = { proxy: { ...PROXY, value: '+27-0829999999' } }));
    await refused(transfer, /has no successful identifier determination/);
    assert.equal(await linkUnlessRetry(deps(false), integrator, transfer), undefined);
  });

  void it('links the newest successful determination at the payment\'s creditor agent within the window, and only that', async () => {
    clock.ms = T0 + 10 * VALIDITY_MS;
    const key = lookupKey('ZA_RPP', { schema: 'MOBILE', namespace: 'ZA_MOBILE', value: '+27-0821111111' });
    const transfer = payment((body) => (body.creditorAccount = { proxy: { ...PROXY, value: '+27-0821111111' } }));
    await determined(successful('1000000001'), { key, ageMs: VALIDITY_MS + 1 });
    await refused(transfer, /has no successful identifier determination/);
    const atWindowEdge = await determined(successful('1000000002'), { key, ageMs: VALIDITY_MS });
    assert.deepEqual(await linkUnlessRetry(deps(), integrator, transfer), { transactionId: atWindowEdge.id, uetr: atWindowEdge.uetr, account: '1000000002' }, 'the oldest still valid');
    const newest = await determined(successful('1000000003'), { key, ageMs: 2_000 });
    await determined({ outcome: 'FAILED', reasonCode: 'AC01' }, { key, ageMs: 1_500 });
    await determined(undefined, { key, ageMs: 1_400 });
    await determined(successful('1000000004', 'OTHRZAJJXXX'), { key, ageMs: 1_300 });
    await determined({ outcome: 'SUCCESSFUL', account: { accountAgentBicfi: 'FIRNZAJJ' } }, { key, ageMs: 1_200 });
    await determined(successful('1000000005'), { key, ageMs: 1_100, integratorId: 'bank-b' });
    assert.deepEqual(
      await linkUnlessRetry(deps(), integrator, transfer),
      { transactionId: newest.id, uetr: newest.uetr, account: '1000000003' },
      'not a failed or undecided one, not one at another bank, not one without an account, not another integrator\'s',
    );
    const sameBankWithBranch = await determined(successful('1000000006', 'FIRNZAJJ'), { key, ageMs: 1_000 });
    assert.equal((await linkUnlessRetry(deps(), integrator, transfer))?.transactionId, sameBankWithBranch.id, 'banks compared by their first 8 characters');
    const noBank = await determined({ outcome: 'SUCCESSFUL', account: { traditionalIdentifier: '1000000007' } }, { key, ageMs: 900 });
    assert.equal((await linkUnlessRetry(deps(), integrator, transfer))?.transactionId, noBank.id, 'a determination that names no bank');
    const anyBank = payment((body) => ((body.creditorAccount = { proxy: { ...PROXY, value: '+27-0821111111' } }), (body.creditorAgent = { clearingSystemMemberId: { memberId: '250655' } })));
    assert.equal((await linkUnlessRetry(deps(), integrator, anyBank))?.transactionId, noBank.id, 'a payment that names no creditor bank takes the newest');
  });

  void it('prefers the determination that carries the payment\'s uetr over a newer one', async () => {
    clock.ms = T0 + 20 * VALIDITY_MS;
    const key = lookupKey('ZA_RPP', { schema: 'MOBILE', namespace: 'ZA_MOBILE', value: '+27-0822222222' });
    const transfer = payment((body) => (body.creditorAccount = { proxy: { ...PROXY, value: '+27-0822222222' } }));
    const own = await determined(successful('2000000001'), { key, ageMs: 5_000, uetr: transfer.uetr });
    await determined(successful('2000000002'), { key, ageMs: 1_000 });
    assert.deepEqual(await linkUnlessRetry(deps(), integrator, transfer), { transactionId: own.id, uetr: transfer.uetr, account: '2000000001' });
  });

  void it('cannot link a proxy without a namespace, or of another schema than MOBILE or CUSTOM, and says what it needs', async () => {
    const custom = payment((body) => (body.creditorAccount = { proxy: { schema: 'CUSTOM', value: 'thandi@shap' } }));
    assert.equal(custom.message.creditorAccount.proxy?.namespace, undefined);
    await refused(custom, /needs schema MOBILE or CUSTOM and its namespace/);
    for (const schema of ['GENERIC', 'EMAIL']) {
      const other = payment((body) => (body.creditorAccount = { proxy: { schema, namespace: 'DEMOZAJJ', value: 'thandi@shap' } }));
      await refused(other, /needs schema MOBILE or CUSTOM and its namespace/);
    }
  });

  void it('links a CUSTOM proxy by its schema, namespace and value', async () => {
    const proxy = { schema: 'CUSTOM', namespace: 'DEMOZAJJ', value: 'thandi@shap' } as const;
    const custom = await determined(successful('3000000001'), { key: lookupKey('ZA_RPP', proxy) });
    await determined(successful('3000000002'), { key: lookupKey('ZA_RPP', { ...proxy, schema: 'MOBILE' }) });
    const transfer = payment((body) => (body.creditorAccount = { proxy }));
    assert.deepEqual(await linkUnlessRetry(deps(), integrator, transfer), { transactionId: custom.id, uetr: custom.uetr, account: '3000000001' });
  });

  void it('compares the banks by their first 8 characters however the payment writes its creditor agent, and takes the newest when it names none', async () => {
    clock.ms = T0 + 30 * VALIDITY_MS;
    const key = lookupKey('ZA_RPP', { schema: 'MOBILE', namespace: 'ZA_MOBILE', value: '+27-0824444444' });
    const proxy = { ...PROXY, value: '+27-0824444444' };
    const atBank = await determined(successful('4000000001', 'FIRNZAJJ'), { key, ageMs: 2_000 });
    const withBranch = payment((body) => ((body.creditorAccount = { proxy }), (body.creditorAgent = { bicfi: 'FIRNZAJJXXX' })));
    assert.equal((await linkUnlessRetry(deps(), integrator, withBranch))?.transactionId, atBank.id);
    const elsewhere = await determined(successful('4000000002', 'OTHRZAJJXXX'), { key, ageMs: 1_000 });
    const noBank = payment((body) => ((body.creditorAccount = { proxy }), (body.creditorAgent = { clearingSystemMemberId: { memberId: '250655' } })));
    assert.equal((await linkUnlessRetry(deps(), integrator, noBank))?.transactionId, elsewhere.id, 'the newest, whatever its bank');
  });

  void it('refuses a payment to another bank than the proxy resolved to, naming that bank and its determination, the one with the payment\'s uetr first', async () => {
    clock.ms = T0 + 40 * VALIDITY_MS;
    const key = lookupKey('ZA_RPP', { schema: 'MOBILE', namespace: 'ZA_MOBILE', value: '+27-0825555555' });
    const transfer = payment((body) => (body.creditorAccount = { proxy: { ...PROXY, value: '+27-0825555555' } }));
    const refusedFor = async (resolvedAt: { uetr: string; bank: string }): Promise<void> => {
      await assert.rejects(linkUnlessRetry(deps(), integrator, transfer), (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.code, 'IDENTIFIER_NOT_DETERMINED');
        assert.deepEqual(error.errors, [{ field: '/creditorAgent/bicfi', message: `names another bank than ${resolvedAt.bank}, where the identifier determination resolved the proxy` }]);
        assert.equal(
          error.detail,
          `this integrator's identifier determination of this proxy (uetr ${resolvedAt.uetr}, in the last 600 s) resolved it to an account at ${resolvedAt.bank}, ` +
            "but the payment's creditorAgent is FIRNZAJJ: pay the bank the proxy resolved to, or determine the proxy again",
        );
        return true;
      });
    };
    const older = await determined(successful('5000000001', 'OTHRZAJJXXX'), { key, ageMs: 3_000 });
    await refusedFor({ uetr: older.uetr, bank: 'OTHRZAJJXXX' });
    const newer = await determined(successful('5000000002', 'THRDZAJJXXX'), { key, ageMs: 2_000 });
    await refusedFor({ uetr: newer.uetr, bank: 'THRDZAJJXXX' });
    const own = await determined(successful('5000000003', 'OWNUZAJJXXX'), { key, ageMs: 2_500, uetr: transfer.uetr });
    await refusedFor({ uetr: own.uetr, bank: 'OWNUZAJJXXX' });
    assert.equal(await linkUnlessRetry(deps(false), integrator, transfer), undefined, 'unless the requirement is off');
  });

  void it('answers a retry of a stored message as the first was, without looking for a determination', async () => {
    const transfer = payment((body) => (body.creditorAccount = { proxy: { ...PROXY, value: '+27-0823333333' } }));
    await store.intake({
      id: randomUUID(),
      integratorId: 'bank-a',
      kind: 'CREDIT_TRANSFER',
      uetr: transfer.uetr,
      scheme: 'ZA_RPP',
      messageId: transfer.messageId,
      payloadHash: 'stored',
      rawBody: '{}',
      amountMinor: 1n,
      currency: 'ZAR',
      state: 'PAYMENT_AUTH_REQUEST_RECEIVED',
      receivedAt: clock.now(),
      dueAt: null,
      traceparent: null,
      tracestate: null,
      outbox: [],
    });
    assert.equal(await linkUnlessRetry(deps(), integrator, transfer), undefined);
  });
});
