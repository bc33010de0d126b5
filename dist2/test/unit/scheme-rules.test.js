import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { familyOf } from '../../src/connectors/registry.js';
import { outboundTransfer, withAmount } from '../support/scheme.js';
/** Each family's own rules, through check(): a failure is a REJECTED outcome with an ISO reason code. */
const nowhere = {
    send: () => Promise.reject(new Error('check() must not send')),
    start: () => Promise.resolve(),
    stop: () => Promise.resolve(),
};
function connectorFor(scheme) {
    const family = familyOf(scheme);
    assert.ok(family);
    return createIsoConnector(family, { scheme, transport: nowhere, clock: { now: () => 0 } });
}
function reasonOf(transfer, limits = {}) {
    const outcome = connectorFor(transfer.scheme).check(transfer, limits);
    return outcome.ok ? 'ok' : outcome.reasonCode;
}
void describe('scheme rules', () => {
    void it('caps ZA_RPP at R50,000.00 by default, naming the limit', () => {
        const transfer = outboundTransfer('ZA_RPP');
        assert.equal(reasonOf(withAmount(transfer, 5000000n)), 'ok');
        const outcome = connectorFor('ZA_RPP').check(withAmount(transfer, 5000001n), {});
        assert.equal(outcome.ok ? '' : outcome.reasonCode, 'AM02');
        assert.match(outcome.ok ? '' : outcome.reasonText, /50000\.01 ZAR is above the ZA_RPP maximum of 50000\.00 ZAR/);
    });
    void it("lets an integrator's configured maximum replace the scheme default, higher or lower", () => {
        const transfer = withAmount(outboundTransfer('ZA_RPP'), 6000000n);
        assert.equal(reasonOf(transfer, { amountMaxMinor: 10000000n }), 'ok');
        assert.equal(reasonOf(withAmount(transfer, 100001n), { amountMaxMinor: 100000n }), 'AM02');
    });
    void it('caps ZA_RTC and ZA_EFT at R5,000,000.00 by default and sets no default on CBPR_PLUS and TCIB', () => {
        for (const scheme of ['ZA_RTC', 'ZA_EFT']) {
            assert.equal(reasonOf(withAmount(outboundTransfer(scheme), 500000000n)), 'ok', scheme);
            assert.equal(reasonOf(withAmount(outboundTransfer(scheme), 500000001n)), 'AM02', scheme);
        }
        for (const scheme of ['CBPR_PLUS', 'TCIB'])
            assert.equal(reasonOf(withAmount(outboundTransfer(scheme), 10n ** 15n)), 'ok', scheme);
    });
    void it('refuses an amount ISO 20022 cannot carry (more than 18 digits) with AM02', () => {
        assert.equal(reasonOf(withAmount(outboundTransfer('CBPR_PLUS'), 10n ** 18n)), 'AM02');
        assert.equal(reasonOf(withAmount(outboundTransfer('CBPR_PLUS'), 10n ** 18n - 1n)), 'ok');
    });
    void it('takes only ZAR instructed amounts on the ZA_ schemes, any on TCIB', () => {
        const foreign = (scheme) => outboundTransfer(scheme, (message) => {
            message.amounts.instructedAmount = { currency: 'USD', value: 10 };
        });
        for (const scheme of ['ZA_RTC', 'ZA_RPP', 'ZA_EFT'])
            assert.equal(reasonOf(foreign(scheme)), 'AM03', scheme);
        assert.equal(reasonOf(foreign('TCIB')), 'ok');
    });
    void it('needs a routable creditor agent on the ZA_ schemes (RC08)', () => {
        const transfer = outboundTransfer('ZA_RTC', (message) => {
            message.creditorAgent = { name: 'Some bank' };
        });
        assert.equal(reasonOf(transfer), 'RC08');
        const byMemberId = outboundTransfer('ZA_EFT', (message) => {
            message.creditorAgent = { clearingSystemMemberId: { memberId: '051001' } };
        });
        assert.equal(reasonOf(byMemberId), 'ok');
    });
    void it('takes a proxy without an account number on ZA_RPP only (AC03 elsewhere)', () => {
        assert.equal(reasonOf(outboundTransfer('ZA_RPP')), 'ok');
        const proxyOnly = (scheme) => outboundTransfer(scheme, (message) => {
            message.creditorAccount = { proxy: { namespace: 'ZA_MOBILE', schema: 'MOBILE', value: '+27-0821234567' } };
        });
        for (const scheme of ['ZA_RTC', 'ZA_EFT', 'CBPR_PLUS', 'TCIB'])
            assert.equal(reasonOf(proxyOnly(scheme)), 'AC03', scheme);
    });
    void it('needs the BICs of both agents on CBPR_PLUS (RC06 debtor agent, RC07 creditor agent)', () => {
        const noDebtorBic = outboundTransfer('CBPR_PLUS', (message) => {
            message.debtorAgent = { clearingSystemMemberId: { memberId: '210001' } };
        });
        assert.equal(reasonOf(noDebtorBic), 'RC06');
        const noCreditorBic = outboundTransfer('CBPR_PLUS', (message) => {
            message.creditorAgent = { name: 'JPMorgan Chase Bank, N.A.' };
        });
        assert.equal(reasonOf(noCreditorBic), 'RC07');
    });
    void it('needs a charge bearer on CBPR_PLUS (CH21)', () => {
        const transfer = outboundTransfer('CBPR_PLUS', (message) => {
            message.paymentScheme = { schema: 'CBPR_PLUS', schemeData: {} };
        });
        assert.equal(reasonOf(transfer), 'CH21');
    });
    void it('refuses text outside the CBPR+ character set (RR10) but takes it on the ZA_ schemes', () => {
        const accented = (scheme) => outboundTransfer(scheme, (message) => {
            message.creditor.legalName = 'Müller Maschinenbau GmbH';
        });
        const outcome = connectorFor('CBPR_PLUS').check(accented('CBPR_PLUS'), {});
        assert.equal(outcome.ok ? '' : outcome.reasonCode, 'RR10');
        assert.match(outcome.ok ? '' : outcome.reasonText, /Cdtr\/Nm/);
        assert.equal(reasonOf(accented('ZA_RTC')), 'ok');
    });
    void it('settles TCIB in ZAR only, with creditor agents in the SADC region', () => {
        const dollars = outboundTransfer('TCIB', (message) => {
            message.amounts.bankSettlementAmount = { currency: 'USD', value: 100 };
        });
        assert.equal(reasonOf(withAmount(dollars, 10000n, 'USD')), 'AM03');
        const outsideSadc = outboundTransfer('TCIB', (message) => {
            message.creditorAgent = { bicfi: 'CHASUS33' };
        });
        assert.equal(reasonOf(outsideSadc), 'RC07');
        const noBic = outboundTransfer('TCIB', (message) => {
            message.creditorAgent = { name: 'Zambia National Commercial Bank' };
        });
        assert.equal(reasonOf(noBic), 'RC07');
    });
    void it('refuses a UETR that is not a version-4 UUID (FF02), as the ISO 20022 type requires', () => {
        const transfer = outboundTransfer('ZA_RTC');
        assert.equal(reasonOf({ ...transfer, uetr: '018f2b7c-5b9e-7d7a-9f0e-2b8c6d4e1a90' }), 'FF02');
    });
    void it('needs debtor and creditor names (CH21) and account numbers of at most 34 characters (AC01)', () => {
        const nameless = outboundTransfer('ZA_RTC', (message) => {
            message.debtor = { countryOfResidence: 'ZA' };
        });
        assert.equal(reasonOf(nameless), 'CH21');
        const longAccount = outboundTransfer('ZA_RTC', (message) => {
            message.creditorAccount = { identification: { schema: 'GENERIC', value: '1'.repeat(35) } };
        });
        assert.equal(reasonOf(longAccount), 'AC01');
    });
    void it('is pure: the same answer twice, the message untouched', () => {
        const transfer = withAmount(outboundTransfer('ZA_RPP'), 9000000n);
        const before = structuredClone(transfer.message);
        const connector = connectorFor('ZA_RPP');
        const first = connector.check(transfer, {});
        assert.deepEqual(connector.check(transfer, {}), first);
        assert.deepEqual(transfer.message, before);
    });
});
//# sourceMappingURL=scheme-rules.test.js.map