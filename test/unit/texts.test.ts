import { describe, it } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { counted, cutAtWord, REASON_TEXT_CHARS_MAX, reasonTextOf } from '../../src/lib/text.js';
import { domainValidator } from '../../src/http/validation.js';
import { ApiError } from '../../src/domain/errors.js';
import { acmt024Document } from '../../src/connectors/iso20022/acmt024.js';
import { camt029Document } from '../../src/connectors/iso20022/camt029.js';
import { pacs002Document, pacs002GroupDocument } from '../../src/connectors/iso20022/pacs002.js';
import { pain014Document } from '../../src/connectors/iso20022/pain014.js';
import { readInboundPacs008 } from '../../src/connectors/iso20022/inbound-pacs008.js';

/** Words and the spaces between them, with the odd long word, emoji and other whitespace. */
const words = fc
  .array(
    fc.oneof(
      fc.stringMatching(/^[a-zA-Z'-]{1,12}$/),
      fc.stringMatching(/^[a-z]{30,60}$/),
      fc.constantFrom('😀', 'é', 'Ünïcödé', '1.25', 'AB10:'),
    ),
    { maxLength: 12 },
  )
  .chain((parts) => fc.tuple(fc.constant(parts), fc.array(fc.constantFrom(' ', '  ', '\t', '\n'), { minLength: parts.length, maxLength: parts.length })))
  .map(([parts, gaps]) => parts.map((part, index) => `${part}${gaps[index] ?? ' '}`).join(''));

const chars = (text: string) => [...text];

void describe('cutAtWord, the one text cutter of the service', () => {
  void it('keeps within the limit, keeps a prefix of the trimmed text, and never ends mid-word unless the first word alone exceeds the limit', () => {
    fc.assert(
      fc.property(fc.oneof(words, fc.string({ unit: 'grapheme', maxLength: 80 })), fc.integer({ min: 1, max: 60 }), (text, max) => {
        const cut = cutAtWord(text, max);
        const trimmed = text.trim();
        assert.ok(chars(cut).length <= max, `${JSON.stringify(cut)} has at most ${max} characters`);
        assert.ok(trimmed.startsWith(cut), `${JSON.stringify(cut)} is a prefix of ${JSON.stringify(trimmed)}`);
        assert.equal(cut, cut.trim(), 'no space is left at either end');
        if (cut === trimmed) return;
        const next = trimmed.slice(cut.length);
        const firstWord = chars(trimmed.split(/\s/)[0] ?? '');
        if (firstWord.length > max) {
          assert.equal(chars(cut).length, max, 'a first word over the limit is cut at the limit');
        } else {
          assert.match(next, /^\s/, `${JSON.stringify(cut)} ends at a word boundary of ${JSON.stringify(trimmed)}`);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  void it('cuts the reason text the issue saw mid-word at the word before it', () => {
    assert.equal(reasonTextOf('simulated permanent transport failure'), 'simulated permanent transport');
    assert.equal(reasonTextOf('Permanent transport failure (simulated: test value PERMANENT-FAILURE)'), 'Permanent transport failure');
    assert.equal(REASON_TEXT_CHARS_MAX, 35);
    assert.equal(cutAtWord('😀'.repeat(40), 35), '😀'.repeat(35));
  });
});

/** Every TypeScript source under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
}

void describe("the service's own reason texts", () => {
  void it('are at most 35 characters wherever the machines, the engine and the use cases write one', () => {
    const texts = ['src/domain', 'src/engine', 'src/app'].flatMap(sources).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/reasonText: '([^']*)'/g)].map((match) => ({ file, text: match[1] ?? '' })));
    assert.ok(texts.length >= 5, `the texts are found (${texts.length})`);
    for (const { file, text } of texts) assert.ok(chars(text).length <= REASON_TEXT_CHARS_MAX, `${file}: "${text}" has ${chars(text).length} characters`);
  });
});

void describe('reason texts written into scheme messages (AddtlInf, Max105Text)', () => {
  // 118 characters; the 105th falls inside "beneficiary".
  const text = 'The receiving institution could not apply the credit because the account named is dormant and the beneficiary declined';
  const party = { Agt: { FinInstnId: { BICFI: 'BANKZAJJXXX' } } };
  const documents: Record<string, string> = {
    'pacs.002 (transaction)': pacs002Document({ messageName: 'pacs.002.001.10', messageId: 'M1', createdAt: '2026-01-01T00:00:00Z', original: { messageId: 'O1', messageName: 'pacs.008.001.08' }, status: 'RJCT', reasonCode: 'AC06', additionalInformation: text }),
    'pacs.002 (group)': pacs002GroupDocument({ messageName: 'pacs.002.001.10', messageId: 'M1', createdAt: '2026-01-01T00:00:00Z', original: { messageId: 'O1', messageName: 'pacs.008.001.08' }, status: 'RJCT', reasonCode: 'AC06', additionalInformation: text }),
    'pain.014': pain014Document({ messageName: 'pain.014.001.09', messageId: 'M1', createdAt: '2026-01-01T00:00:00Z', initiatingParty: { Nm: 'Operator' }, original: { messageId: 'O1', messageName: 'pain.013.001.09', paymentInformationId: 'P1' }, status: 'RJCT', reasonCode: 'AC06', additionalInformation: text }),
    'camt.029': camt029Document({ messageName: 'camt.029.001.09', messageId: 'M1', createdAt: '2026-01-01T00:00:00Z', assigner: party, assignee: party, resolvedCase: { id: 'C1', creator: party }, confirmation: 'RJCR', original: {}, reasonCode: 'NOAS', additionalInformation: text }),
    'acmt.024': acmt024Document({ messageName: 'acmt.024.001.03', messageId: 'M1', createdAt: '2026-01-01T00:00:00Z', assigner: party, assignee: party, original: { messageId: 'O1' }, originalId: 'V1', outcome: { verified: false, reasonCode: 'AC01', reasonText: text } }),
  };

  for (const [name, xml] of Object.entries(documents)) {
    void it(`are cut at a word boundary in ${name}`, () => {
      const written = /<AddtlInf>([^<]*)<\/AddtlInf>/.exec(xml)?.[1];
      assert.equal(written, 'The receiving institution could not apply the credit because the account named is dormant and the');
      assert.equal(written, cutAtWord(text, 105));
    });
  }
});

void describe('generated messages count in the right number', () => {
  void it('says 1 field and 2 fields', () => {
    assert.equal(counted(1, 'field'), '1 field');
    assert.equal(counted(2, 'field'), '2 fields');
    assert.equal(counted(0, 'entry', 'entries'), '0 entries');
  });

  void it('says "1 field … violates" and "2 fields … violate" in the validation detail', () => {
    const detailOf = (errors: number): string => {
      const validate = domainValidator(() => ({ ok: false as const, errors: Array.from({ length: errors }, (_, index) => ({ field: `/f${index}`, message: 'is required' })) }), 'CreditTransfer');
      const result = (validate as unknown as () => (data: unknown) => { error?: unknown })()({});
      assert.ok(result.error instanceof ApiError);
      return result.error.detail ?? '';
    };
    assert.equal(detailOf(1), '1 field of the CreditTransfer violates the interface rules');
    assert.equal(detailOf(2), '2 fields of the CreditTransfer violate the interface rules');
  });

  void it('names the transactions an inbound pacs.008 carries, not an NbOfTxs of 1 ("2 transactions", never "1 transactions")', () => {
    const pacs008 = (count: string, transactions: number): string =>
      '<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.10"><FIToFICstmrCdtTrf>' +
      `<GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-01-01T00:00:00Z</CreDtTm><NbOfTxs>${count}</NbOfTxs></GrpHdr>` +
      Array.from({ length: transactions }, (_, index) => `<CdtTrfTxInf><PmtId><EndToEndId>E${index}</EndToEndId></PmtId></CdtTrfTxInf>`).join('') +
      '</FIToFICstmrCdtTrf></Document>';
    const reasonOf = (xml: string): string | undefined => {
      const read = readInboundPacs008(xml, 'ZA_RPP');
      return read.kind === 'refused' ? read.reasonText : undefined;
    };
    assert.equal(reasonOf(pacs008('1', 2)), '2 transactions in one message; one per message is taken');
    assert.equal(reasonOf(pacs008('3', 1)), '3 transactions in one message; one per message is taken');
  });
});
