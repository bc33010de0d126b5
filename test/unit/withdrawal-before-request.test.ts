import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { openStore } from '../../src/adapters/store.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { receiveFromScheme } from '../../src/app/receive-from-scheme.js';
import { configFromObject } from '../../src/config/load.js';
import { readCamt029 } from '../../src/connectors/iso20022/camt029.js';
import { camt056Document } from '../../src/connectors/iso20022/camt056.js';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { schemeMessageId } from '../../src/connectors/iso20022/ids.js';
import { pain013Document } from '../../src/connectors/iso20022/pain013.js';
import { ZA_RPP } from '../../src/connectors/za-rpp/family.js';
import { IRTP } from '../../src/domain/machines/inbound-request-to-pay.js';
import { Engine } from '../../src/engine/engine.js';
import { inboundTransactionId } from '../../src/lib/inbound-id.js';
import type { Store } from '../../src/ports/store.js';
import { eventually } from '../support/delivery.js';
import { cancellationOf, outboundRequestToPay } from '../support/request-to-pay.js';
import { testConfigObject } from '../support/server.js';
import { CapturingTransport } from '../support/transport.js';

/**
 * A camt.056 that overtakes the pain.013 it withdraws (the scheme is still delivering the pain.013):
 * the service does not know the request yet, so it refuses the camt.056 to the transport, keeping
 * nothing; the scheme delivers it again, and once the pain.013 is recorded the withdrawal is taken
 * and answered (camt.029). Neither is it ignored (a withdrawal never answered) nor answered NOOR
 * (a request then presented and paid although its creditor withdrew it).
 */

const CREATED = '2026-11-28T07:15:27.482+00:00';

void describe('a withdrawal (camt.056) that arrives before its request-to-pay (pain.013)', () => {
  let store: Store;
  let engine: Engine;
  const transport = new CapturingTransport();

  before(async () => {
    const config = await configFromObject(testConfigObject({ database: 'sqlite::memory:' }));
    store = await openStore('sqlite::memory:');
    const integrators = new Map(config.integrators.map((integrator) => [integrator.id, integrator]));
    const log = pino({ level: 'silent' });
    const connector = createIsoConnector(ZA_RPP, { scheme: 'ZA_RPP', transport, clock: systemClock });
    engine = new Engine({ store, clock: systemClock, ids: systemIds, connectors: new Map([['ZA_RPP', connector]]), integrators, schemes: config.schemes, instanceId: 'unit', log, options: { pollIntervalMs: 10 } });
    const receiving = { store, clock: systemClock, ids: systemIds, integrators, schemes: config.schemes, log, processing: engine };
    await connector.start({ receive: (report) => engine.receive(report), originate: (request) => receiveFromScheme(receiving, request) });
    engine.start();
  });
  after(async () => {
    await engine.stop();
    await store.close();
  });

  void it('is refused to the transport and keeps nothing, then taken and answered CNCL once the pain.013 is recorded', async () => {
    const request = outboundRequestToPay('ACCOUNT', (message) => {
      message.debtorAgent = { bicfi: 'DEMOZAJJ', clearingSystemMemberId: { memberId: '210001' } };
    });
    // The camt.056 names the pain.013 by the MsgId the creditor's bank gave it.
    const messageId = schemeMessageId(request.idempotencyKey);
    const pain013 = pain013Document({ messageId, createdAt: CREATED }, request, { messageName: 'pain.013.001.09', memberIdSystem: 'ZANCC' });
    const camt056 = camt056Document(CREATED, cancellationOf(request), { messageName: 'camt.056.001.10', clearingSystem: 'RPP', memberIdSystem: 'ZANCC' });
    assert.ok(pain013.ok && camt056.ok);
    const id = inboundTransactionId('ZA_RPP', 'pain.013.001.09', messageId);

    await assert.rejects(transport.answer(camt056.document), /not recorded yet; send it again/, 'the transport refuses it, so the scheme delivers it again');
    assert.equal(await store.getTransaction(id), undefined, 'nothing was made of the withdrawal');
    assert.equal(transport.sent.length, 0, 'no camt.029 answers it yet');

    await transport.answer(pain013.document);
    assert.equal((await store.getTransaction(id))?.kind, 'INBOUND_REQUEST_TO_PAY', 'the pain.013 is recorded under the id its MsgId gives');
    await transport.answer(camt056.document);

    await eventually(async () => (await store.getTransaction(id))?.state === IRTP.CANCELLED, 'the request is withdrawn');
    await eventually(() => transport.sent.some((sent) => sent.messageName.startsWith('camt.029.')), 'the camt.029 is sent');
    const answer = readCamt029(transport.sent.find((sent) => sent.messageName.startsWith('camt.029.'))!.document);
    assert.ok(answer.ok);
    assert.equal(answer.value.outcome, 'accepted');
  });
});
