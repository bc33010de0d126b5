import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compact, readDocument, writeDocument, type XmlElement, type XmlValue } from '../../src/connectors/iso20022/xml.js';

const MESSAGE = 'pacs.002.001.10';

/** Texts as ISO 20022 carries them, and every character markup must escape; no surrounding blanks (the reader trims texts). */
const text = fc
  .array(fc.constantFrom('a', 'Z', '7', ' ', '\t', '\n', '\r', '&', '<', '>', "'", '"', ';', '#', 'é', 'ß', '€', '中', '😀', ']]>'), { minLength: 1, maxLength: 12 })
  .map((chars) => chars.join('').trim())
  .filter((value) => value !== '');
const elementName = fc.constantFrom('GrpHdr', 'MsgId', 'Amt', 'Nm', 'Ustrd', 'Tx', 'Id', 'Othr');
const attributeName = fc.constantFrom('@_Ccy', '@_Lang', '@_Cd');

/** An element's value as the writer takes it: text, attributes beside text, children (some repeated), nested. */
const element: fc.Arbitrary<XmlValue> = fc.letrec<{ value: XmlValue; node: XmlElement }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, text, tie('node'), fc.array(text, { minLength: 2, maxLength: 3 })),
  node: fc.oneof(
    fc.dictionary(elementName, tie('value'), { minKeys: 1, maxKeys: 4 }),
    fc.record({ attributes: fc.dictionary(attributeName, text, { minKeys: 1, maxKeys: 2 }), text }).map(({ attributes, text: value }) => ({ ...attributes, '#text': value })),
  ),
})).node;

void describe('ISO 20022 XML writing', () => {
  void it('reads back exactly the tree it wrote, whatever the texts hold (escaping, entities, quotes, line ends, non-ASCII)', () => {
    fc.assert(
      fc.property(element, (body) => {
        const written = writeDocument(MESSAGE, 'FIToFIPmtStsRpt', body as XmlElement);
        const read = readDocument(written);
        assert.ok(read.ok, read.ok ? '' : `${read.error}\n${written}`);
        assert.equal(read.messageName, MESSAGE);
        assert.deepEqual(read.body, compact(body));
      }),
      { numRuns: 500 },
    );
  });

  void it('escapes markup in texts and attribute values and leaves out absent and empty elements', () => {
    const written = writeDocument(MESSAGE, 'Rpt', { A: 'x<y & "z"', B: undefined, C: '', D: { '@_Ccy': 'a"b<c', '#text': '1.00' }, E: ['1', '2'], F: { G: undefined } });
    assert.equal(
      written,
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:${MESSAGE}">`,
        '  <Rpt>',
        '    <A>x&lt;y &amp; &quot;z&quot;</A>',
        '    <D Ccy="a&quot;b&lt;c">1.00</D>',
        '    <E>1</E>',
        '    <E>2</E>',
        '  </Rpt>',
        '</Document>',
        '',
      ].join('\n'),
    );
  });
});
