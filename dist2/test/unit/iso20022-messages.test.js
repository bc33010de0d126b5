import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { idempotencyKeyOf, schemeMessageId, enquiryMessageId } from '../../src/connectors/iso20022/ids.js';
import { mapCreditTransfer, pacs008Document, readPacs008 } from '../../src/connectors/iso20022/pacs008.js';
import { pacs002Document, readPacs002 } from '../../src/connectors/iso20022/pacs002.js';
import { pacs028Document, readPacs028 } from '../../src/connectors/iso20022/pacs028.js';
import { child, readDocument, text } from '../../src/connectors/iso20022/xml.js';
import { FAMILIES, familyOf } from '../../src/connectors/registry.js';
import { SchemeSimulator } from '../../src/connectors/simulator/simulator.js';
import { testValue } from '../../src/connectors/simulator/test-values.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { outboundTransfer, sleep, toAccount, withAmount } from '../support/scheme.js';
import { assertValid, XSD_SKIP } from '../support/xsd.js';
const CREATED_AT = '2026-03-02T07:15:27.482+00:00';
function settingsOf(scheme) {
    const family = familyOf(scheme);
    assert.ok(family);
    return family.messages.creditTransfer;
}
function pacs008Of(transfer) {
    const settings = settingsOf(transfer.scheme);
    const mapped = mapCreditTransfer(transfer, settings);
    assert.ok(mapped.ok, mapped.ok ? '' : `${mapped.reasonCode} ${mapped.reasonText}`);
    return pacs008Document({ messageId: schemeMessageId(transfer.idempotencyKey), createdAt: CREATED_AT }, mapped.transaction, settings);
}
function bodyOf(xml) {
    const read = readDocument(xml);
    assert.ok(read.ok, read.ok ? '' : read.error);
    return read;
}
const SCHEMES_WITH_FAMILIES = FAMILIES.flatMap((family) => family.schemes);
void describe('pacs.008 from a credit transfer', () => {
    void it('writes the amount as an exact decimal from bigint minor units, beyond what a double holds', () => {
        const transfer = withAmount(outboundTransfer('ZA_RTC'), 1234567890123456789n);
        const xml = pacs008Of(transfer);
        assert.match(xml, /<IntrBkSttlmAmt Ccy="ZAR">12345678901234567\.89<\/IntrBkSttlmAmt>/);
        const read = readPacs008(xml);
        assert.ok(read.ok);
        assert.equal(read.value.amount, '12345678901234567.89');
        assert.equal(read.value.currency, 'ZAR');
    });
    void it('writes small and zero-decimal amounts with the currency scale', () => {
        assert.match(pacs008Of(withAmount(outboundTransfer('ZA_RTC'), 5n)), /<IntrBkSttlmAmt Ccy="ZAR">0\.05</);
        const yen = outboundTransfer('CBPR_PLUS', (message) => {
            message.amounts.bankSettlementAmount = { currency: 'JPY', value: 1050 };
        });
        assert.match(pacs008Of(withAmount(yen, 1050n, 'JPY')), /<IntrBkSttlmAmt Ccy="JPY">1050</);
    });
    for (const scheme of SCHEMES_WITH_FAMILIES) {
        void it(`carries every mandatory element and the transaction's references on ${scheme}`, () => {
            const transfer = outboundTransfer(scheme);
            const xml = pacs008Of(transfer);
            const document = bodyOf(xml);
            assert.equal(document.messageName, settingsOf(scheme).version);
            assert.equal(document.root, 'FIToFICstmrCdtTrf');
            const body = document.body;
            assert.equal(text(body, 'GrpHdr', 'MsgId'), schemeMessageId(transfer.idempotencyKey));
            assert.equal(text(body, 'GrpHdr', 'CreDtTm'), CREATED_AT);
            assert.equal(text(body, 'GrpHdr', 'NbOfTxs'), '1');
            assert.equal(text(body, 'GrpHdr', 'SttlmInf', 'SttlmMtd'), settingsOf(scheme).settlementMethod);
            const tx = child(body, 'CdtTrfTxInf');
            const ids = transfer.message.transactionIdentifiers;
            assert.equal(text(tx, 'PmtId', 'EndToEndId'), ids.endToEndIdentification);
            assert.equal(text(tx, 'PmtId', 'UETR'), transfer.uetr);
            assert.equal(text(tx, 'PmtId', 'TxId'), ids.transactionIdentification ?? schemeMessageId(transfer.idempotencyKey));
            assert.ok(text(tx, 'IntrBkSttlmAmt'));
            assert.match(text(tx, 'ChrgBr') ?? '', /^(DEBT|CRED|SHAR|SLEV)$/);
            assert.equal(text(tx, 'Dbtr', 'Nm'), transfer.message.debtor.legalName);
            assert.equal(text(tx, 'Cdtr', 'Nm'), transfer.message.creditor.legalName);
            assert.equal(text(tx, 'DbtrAgt', 'FinInstnId', 'BICFI'), 'DEMOZAJJ');
            assert.ok(child(tx, 'CdtrAgt', 'FinInstnId'));
        });
    }
    void it('takes the charge bearer, exchange rate, charges and regulatory reporting of a CBPR+ transfer', () => {
        const tx = child(bodyOf(pacs008Of(outboundTransfer('CBPR_PLUS'))).body, 'CdtTrfTxInf');
        assert.equal(text(tx, 'ChrgBr'), 'SHAR');
        assert.equal(text(tx, 'XchgRate'), '18.25');
        assert.equal(text(tx, 'InstdAmt'), '228125.00');
        assert.equal(text(tx, 'ChrgsInf', 'Amt'), '15.00');
        assert.equal(text(tx, 'ChrgsInf', 'Agt', 'FinInstnId', 'BICFI'), 'CITIUS33');
        assert.equal(text(tx, 'IntrmyAgt1', 'FinInstnId', 'BICFI'), 'CITIUS33');
        assert.equal(text(tx, 'RgltryRptg', 'Authrty', 'Ctry'), 'ZA');
        assert.equal(text(tx, 'RgltryRptg', 'Dtls', 'Cd'), '101');
        assert.equal(text(bodyOf(pacs008Of(outboundTransfer('CBPR_PLUS'))).body, 'GrpHdr', 'SttlmInf', 'SttlmMtd'), 'INDA');
    });
    void it('writes a PayShap proxy-only creditor account without an account number (pacs.008.001.10)', () => {
        const tx = child(bodyOf(pacs008Of(outboundTransfer('ZA_RPP'))).body, 'CdtTrfTxInf');
        assert.equal(child(tx, 'CdtrAcct', 'Id'), undefined);
        assert.equal(text(tx, 'CdtrAcct', 'Prxy', 'Id'), '+27-0821234567');
        assert.equal(text(tx, 'CdtrAcct', 'Prxy', 'Tp', 'Prtry'), 'MOBILE:ZA_MOBILE');
    });
    void it('keeps a long remittance line whole, in 140-character pieces', () => {
        const line = 'x'.repeat(300);
        const xml = pacs008Of(outboundTransfer('ZA_RTC', (message) => (message.remittanceInformation = { unstructured: [line] })));
        const pieces = [...xml.matchAll(/<Ustrd>(x+)<\/Ustrd>/g)].map((match) => match[1]);
        assert.deepEqual(pieces.map((piece) => piece?.length), [140, 140, 20]);
    });
    void it('leaves out empty optional texts rather than writing empty elements', () => {
        const xml = pacs008Of(outboundTransfer('ZA_RTC', (message) => {
            message.creditorAccount = { identification: { schema: 'GENERIC', value: '4071234567', issuer: '' }, name: '' };
        }));
        assert.doesNotMatch(xml, /<Issr\/>|<Issr><\/Issr>|<Nm\/>|<Nm><\/Nm>/);
    });
    void it('escapes XML-special characters in text instead of breaking the document', () => {
        const xml = pacs008Of(outboundTransfer('ZA_RTC', (message) => (message.creditor.legalName = 'Smith & Sons <Pty> "Ltd"')));
        const read = readDocument(xml);
        assert.ok(read.ok);
        assert.equal(text(read.body, 'CdtTrfTxInf', 'Cdtr', 'Nm'), 'Smith & Sons <Pty> "Ltd"');
    });
});
void describe('scheme message ids derived from the idempotency key', () => {
    void it('gives every submission of one transfer the same MsgId, at most 35 characters, leading back to the key', () => {
        const key = '0f8a3e52-5b9e-4d7a-9f0e-2b8c6d4e1a90';
        assert.equal(schemeMessageId(key), schemeMessageId(key));
        assert.equal(schemeMessageId(key), 'U0f8a3e525b9e4d7a9f0e2b8c6d4e1a90');
        assert.equal(idempotencyKeyOf(schemeMessageId(key)), key);
        assert.equal(idempotencyKeyOf(schemeMessageId('TX42')), 'TX42');
    });
    void it('hashes keys of any other shape into 35 characters', () => {
        const long = `integrator:${'x'.repeat(80)}`;
        const id = schemeMessageId(long);
        assert.equal(id.length, 35);
        assert.equal(id, schemeMessageId(long));
        assert.notEqual(id, schemeMessageId(`${long}y`));
        assert.equal(idempotencyKeyOf(id), undefined);
    });
    void it('gives each enquiry its own MsgId', () => {
        const a = enquiryMessageId('k', 1, 1);
        assert.equal(a.length, 35);
        assert.notEqual(a, enquiryMessageId('k', 1, 2));
    });
});
void describe('pacs.002 and pacs.028', () => {
    void it('reads back what it writes, including the reason', () => {
        const xml = pacs002Document({
            messageName: 'pacs.002.001.10',
            messageId: 'SIM1',
            createdAt: CREATED_AT,
            original: { messageId: 'U1', messageName: 'pacs.008.001.08', endToEndId: 'E2E', uetr: '7c1f3a52-5b9e-4d7a-9f0e-2b8c6d4e1a90' },
            status: 'RJCT',
            reasonCode: 'AC04',
            additionalInformation: 'Account closed',
        });
        const read = readPacs002(xml);
        assert.ok(read.ok);
        assert.deepEqual(read.value.statuses, [
            { originalMessageId: 'U1', originalMessageName: 'pacs.008.001.08', originalEndToEndId: 'E2E', uetr: '7c1f3a52-5b9e-4d7a-9f0e-2b8c6d4e1a90', status: 'RJCT', reasonCode: 'AC04', reasonText: 'Account closed' },
        ]);
        assert.equal(read.value.json.schema, 'pacs.002.001.10');
    });
    void it('reads a report about a whole message from its group status', () => {
        const xml = `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10"><FIToFIPmtStsRpt><GrpHdr><MsgId>OP1</MsgId><CreDtTm>${CREATED_AT}</CreDtTm></GrpHdr><OrgnlGrpInfAndSts><OrgnlMsgId>U1</OrgnlMsgId><OrgnlMsgNmId>pacs.008.001.08</OrgnlMsgNmId><GrpSts>RJCT</GrpSts><StsRsnInf><Rsn><Cd>FF01</Cd></Rsn></StsRsnInf></OrgnlGrpInfAndSts></FIToFIPmtStsRpt></Document>`;
        const read = readPacs002(xml);
        assert.ok(read.ok);
        assert.equal(read.value.statuses[0]?.status, 'RJCT');
        assert.equal(read.value.statuses[0]?.reasonCode, 'FF01');
        assert.equal(read.value.statuses[0]?.originalMessageId, 'U1');
    });
    void it('reads prefixed namespaces and refuses a DOCTYPE, foreign namespaces and malformed XML', () => {
        const prefixed = `<p:Document xmlns:p="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.12"><p:FIToFIPmtStsRpt><p:GrpHdr><p:MsgId>A</p:MsgId></p:GrpHdr></p:FIToFIPmtStsRpt></p:Document>`;
        const read = readPacs002(prefixed);
        assert.ok(read.ok);
        assert.equal(read.value.messageName, 'pacs.002.001.12');
        assert.equal(readDocument('<!DOCTYPE x [<!ENTITY a "b">]><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10"/>').ok, false);
        assert.equal(readDocument('<Document xmlns="urn:example"><X>1</X></Document>').ok, false);
        assert.equal(readDocument('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10"><X>').ok, false);
        assert.equal(readDocument('x'.repeat(1_048_577)).ok, false);
    });
    void it('reads a document as plain objects: texts, attributes beside text, repeated elements as lists, entities decoded', () => {
        const xml = `<?xml version="1.0"?>
      <Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10" xmlns:x="urn:other">
        <!-- a comment -->
        <FIToFIPmtStsRpt>
          <GrpHdr><MsgId> M1 </MsgId><Empty/></GrpHdr>
          <Amt x:Ccy="ZAR">10.00</Amt>
          <Flag On="1"/>
          <Tx><Id>A&amp;B</Id></Tx>
          <Tx><Id><![CDATA[<C>]]></Id></Tx>
        </FIToFIPmtStsRpt>
      </Document>`;
        const read = readDocument(xml);
        assert.ok(read.ok, read.ok ? '' : read.error);
        assert.equal(read.root, 'FIToFIPmtStsRpt');
        assert.deepEqual(read.body, {
            GrpHdr: { MsgId: 'M1', Empty: '' },
            Amt: { '@_Ccy': 'ZAR', '#text': '10.00' },
            Flag: { '@_On': '1' },
            Tx: [{ Id: 'A&B' }, { Id: '<C>' }],
        });
    });
    void it('refuses what is not well-formed or nested absurdly deep, naming the problem', () => {
        const ns = 'urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10';
        for (const xml of [
            `<Document xmlns="${ns}"><A><B></A></B></Document>`,
            `<Document xmlns="${ns}"><A>&undefined;</A></Document>`,
            `<Document xmlns="${ns}"><A/></Document><Second/>`,
            `<Document xmlns="${ns}"><A x="1" x="2"/></Document>`,
            `<Document xmlns="${ns}">${'<A>'.repeat(60)}${'</A>'.repeat(60)}</Document>`,
        ]) {
            const read = readDocument(xml);
            assert.ok(!read.ok, `refused: ${xml.slice(0, 80)}`);
            assert.match(read.error, /not well-formed XML: ./);
        }
    });
    void it('writes an enquiry naming the original transfer', () => {
        const xml = pacs028Document({
            messageName: 'pacs.028.001.03',
            messageId: 'Q1',
            createdAt: CREATED_AT,
            original: { messageId: 'U1', messageName: 'pacs.008.001.08', endToEndId: 'E2E', uetr: '7c1f3a52-5b9e-4d7a-9f0e-2b8c6d4e1a90' },
        });
        const read = readPacs028(xml);
        assert.ok(read.ok);
        assert.equal(read.value.original.messageId, 'U1');
        assert.equal(read.value.original.uetr, '7c1f3a52-5b9e-4d7a-9f0e-2b8c6d4e1a90');
    });
});
/** Collects the simulator's answers to the given documents. */
async function simulatorAnswers(scheme, documents) {
    const answers = [];
    const simulator = new SchemeSimulator({ scheme, clock: { now: () => Date.now() }, latencyMs: 0, lateAnswerMs: 0, entriesMax: 100, deliveryAttemptsMax: 1 });
    await simulator.start((message) => {
        answers.push(message.document);
        return Promise.resolve();
    });
    for (const { messageName, document } of documents) {
        await simulator.send({ scheme, messageName, messageId: 'x', idempotencyKey: 'x', document, traceparent: null });
    }
    await sleep(50);
    await simulator.stop();
    return answers;
}
void describe('generated documents against the ISO 20022 XSDs', { skip: XSD_SKIP }, () => {
    for (const family of FAMILIES) {
        const { version } = family.messages.creditTransfer;
        void it(`${family.family}: pacs.008 (${version}), pacs.028 and the simulator's pacs.002 are schema-valid`, async () => {
            const scheme = family.schemes[0];
            assert.ok(scheme);
            const transfers = [outboundTransfer(scheme), toAccount(scheme, testValue('reject', 'AC01').value), toAccount(scheme, testValue('pending_then_accept').value)];
            if (scheme === 'ZA_RPP') {
                const liberal = creditTransfer('LIBERAL');
                transfers.push({ ...outboundTransfer(scheme), message: liberal, uetr: liberal.transactionIdentifiers.uetr });
            }
            const pacs008 = transfers.map(pacs008Of);
            await assertValid(version, pacs008);
            const enquiries = [...transfers, outboundTransfer(scheme)].map((transfer, index) => pacs028Document({
                messageName: family.messages.statusRequest,
                messageId: enquiryMessageId(transfer.idempotencyKey, 0, index),
                createdAt: CREATED_AT,
                original: { messageId: schemeMessageId(transfer.idempotencyKey), messageName: version, endToEndId: transfer.message.transactionIdentifiers.endToEndIdentification, uetr: transfer.uetr },
            }));
            await assertValid(family.messages.statusRequest, enquiries);
            const answers = await simulatorAnswers(scheme, [
                ...pacs008.map((document) => ({ messageName: version, document })),
                ...enquiries.map((document) => ({ messageName: family.messages.statusRequest, document })),
            ]);
            assert.ok(answers.length >= pacs008.length + enquiries.length, `${answers.length} answers`);
            assert.ok(answers.some((answer) => answer.includes('<Cd>NOOR</Cd>')), 'an unknown transfer is answered with NOOR');
            assert.ok(answers.some((answer) => answer.includes('<TxSts>RJCT</TxSts>')));
            await assertValid(family.messages.statusReport, answers);
        });
    }
});
//# sourceMappingURL=iso20022-messages.test.js.map