import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../src/adapters/store.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { receiveFromScheme } from '../../src/app/receive-from-scheme.js';
import { configFromObject } from '../../src/config/load.js';
import { inboundTransactionId } from '../../src/lib/inbound-id.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { identifierDetermination } from '../fixtures/identifier-determination.js';
import { testConfigObject } from '../support/server.js';
/** The receiving intake on a real store: routing by institution, the API's own rules, resends, the lookup a credit follows. */
let store;
let deps;
const asked = [];
const warnings = [];
before(async () => {
    const config = await configFromObject(testConfigObject({ database: 'sqlite::memory:' }));
    store = await openStore('sqlite::memory:');
    const processing = {
        leaseForNew: () => undefined,
        accepted: () => undefined,
        decideNow: () => Promise.resolve(),
        request: (id, request) => {
            asked.push({ id, request });
            return Promise.resolve('decided');
        },
    };
    deps = {
        store,
        clock: systemClock,
        ids: systemIds,
        integrators: new Map(config.integrators.map((integrator) => [integrator.id, integrator])),
        schemes: config.schemes,
        log: { warn: (_details, message) => warnings.push(message) },
        processing,
    };
});
after(() => store.close());
let sequence = 0;
function request(kind, body, institution, messageId = `SUNIT${(sequence += 1)}`) {
    const messageName = kind === 'credit' ? 'pacs.008.001.08' : 'acmt.023.001.03';
    return {
        kind,
        scheme: kind === 'credit' ? 'ZA_RTC' : 'ZA_RPP',
        original: { messageId, messageName },
        institution,
        bodyJson: JSON.stringify(body),
        received: { messageName, messageId, document: '<Document/>' },
        receivedAt: Date.now(),
    };
}
function creditTo(bicfi) {
    const transfer = creditTransfer('ZA_RTC');
    return { ...transfer, creditorAgent: { bicfi } };
}
void describe('receiving a scheme-originated message', () => {
    void it('refuses with AGNT a message for an institution no integrator holds, and stores nothing', async () => {
        const body = creditTo('NOBDZAJJ');
        const outcome = await receiveFromScheme(deps, request('credit', body, { bicfi: 'NOBDZAJJ', memberId: '999999' }));
        assert.equal(outcome.kind, 'refused');
        assert.equal(outcome.kind === 'refused' ? outcome.reasonCode : '', 'AGNT');
        for (const integrator of ['demo-bank', 'other-bank'])
            assert.equal(await store.findTransaction(integrator, body.transactionIdentifiers.uetr, 'INBOUND_CREDIT_TRANSFER'), undefined);
        assert.ok(warnings.some((warning) => warning.includes('AGNT')));
    });
    void it('routes by the BIC’s first 8 characters or by member id, to that integrator alone', async () => {
        const byBranchBic = creditTo('OTHRZAJJXXX');
        assert.deepEqual(await receiveFromScheme(deps, request('credit', byBranchBic, { bicfi: 'OTHRZAJJXXX' })), { kind: 'accepted' });
        assert.ok(await store.findTransaction('other-bank', byBranchBic.transactionIdentifiers.uetr, 'INBOUND_CREDIT_TRANSFER'));
        assert.equal(await store.findTransaction('demo-bank', byBranchBic.transactionIdentifiers.uetr, 'INBOUND_CREDIT_TRANSFER'), undefined);
        const byMember = creditTo('DEMOZAJJ');
        assert.deepEqual(await receiveFromScheme(deps, request('credit', byMember, { memberId: '210001' })), { kind: 'accepted' });
        assert.ok(await store.findTransaction('demo-bank', byMember.transactionIdentifiers.uetr, 'INBOUND_CREDIT_TRANSFER'));
    });
    void it('refuses with FF02 a message whose rendering breaks the integrator API’s rules, naming the fields, and stores nothing', async () => {
        const body = { ...creditTo('DEMOZAJJ'), amounts: { bankSettlementAmount: { currency: 'ZAR', value: 1.234 } } };
        const outcome = await receiveFromScheme(deps, request('credit', body, { bicfi: 'DEMOZAJJ' }));
        assert.equal(outcome.kind === 'refused' ? outcome.reasonCode : outcome.kind, 'FF02');
        assert.match(outcome.kind === 'refused' ? outcome.reasonText : '', /bankSettlementAmount/);
        assert.equal(await store.findTransaction('demo-bank', body.transactionIdentifiers.uetr, 'INBOUND_CREDIT_TRANSFER'), undefined);
    });
    void it('stores the message under the id its MsgId gives, and takes a resend as the same transaction answered again', async () => {
        const body = creditTo('DEMOZAJJ');
        const first = request('credit', body, { bicfi: 'DEMOZAJJ' });
        assert.deepEqual(await receiveFromScheme(deps, first), { kind: 'accepted' });
        const id = inboundTransactionId('ZA_RTC', 'pacs.008.001.08', first.original.messageId);
        assert.equal((await store.findTransaction('demo-bank', body.transactionIdentifiers.uetr, 'INBOUND_CREDIT_TRANSFER'))?.id, id);
        asked.length = 0;
        assert.deepEqual(await receiveFromScheme(deps, first), { kind: 'accepted' });
        assert.deepEqual(await receiveFromScheme(deps, { ...first, original: { ...first.original, messageId: 'SRESENTUNDERNEWID' } }), { kind: 'accepted' });
        assert.deepEqual(asked.map(({ id: asked, request: what }) => [asked, what.type]), [
            [id, 'resend'],
            [id, 'resend'],
        ], 'both resends (same MsgId, and the same uetr under a new one) answer the one transaction again');
        assert.equal((await store.history(id)).length, 1, 'nothing else was written');
        assert.deepEqual((await store.schemeMessages(id)).map((message) => [message.direction, message.messageName, message.messageId]), [['received', 'pacs.008.001.08', first.original.messageId]], 'the pacs.008 is kept with its transaction, once');
    });
    void it('records the lookup a credit follows by uetr, and never requires one', async () => {
        const lookup = identifierDetermination('GENERIC');
        assert.deepEqual(await receiveFromScheme(deps, request('lookup', lookup, { bicfi: 'DEMOZAJJ' })), { kind: 'accepted' });
        const looked = await store.findTransaction('demo-bank', lookup.request.uetr, 'INBOUND_IDENTIFIER_DETERMINATION');
        assert.ok(looked);
        const credit = creditTo('DEMOZAJJ');
        credit.transactionIdentifiers.uetr = lookup.request.uetr;
        assert.deepEqual(await receiveFromScheme(deps, request('credit', credit, { bicfi: 'DEMOZAJJ' })), { kind: 'accepted' });
        assert.equal((await store.findTransaction('demo-bank', lookup.request.uetr, 'INBOUND_CREDIT_TRANSFER'))?.data.lookupId, looked.id);
        const alone = creditTo('DEMOZAJJ');
        assert.deepEqual(await receiveFromScheme(deps, request('credit', alone, { bicfi: 'DEMOZAJJ' })), { kind: 'accepted' });
        assert.equal((await store.findTransaction('demo-bank', alone.transactionIdentifiers.uetr, 'INBOUND_CREDIT_TRANSFER'))?.data.lookupId, undefined);
    });
});
//# sourceMappingURL=receive-from-scheme.test.js.map