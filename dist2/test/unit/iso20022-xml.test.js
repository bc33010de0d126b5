import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readDocument, writeDocument } from '../../src/connectors/iso20022/xml.js';
const MESSAGE = 'pacs.002.001.10';
/**
 * What a reader finds of a written tree: absent values, empty texts and lists, and elements with
 * neither text nor a child element (attributes alone do not keep one) are left out; a list of one
 * is that one element, and text alone is the element's plain text.
 */
function asRead(value) {
    if (value === undefined || value === '')
        return undefined;
    if (typeof value === 'string')
        return value;
    if (Array.isArray(value)) {
        const items = value.map(asRead).filter((item) => item !== undefined);
        // One element left reads back as that element, not as a list.
        return items.length <= 1 ? items[0] : items;
    }
    const kept = {};
    for (const [key, item] of Object.entries(value)) {
        const read = asRead(item);
        if (read !== undefined)
            kept[key] = read;
    }
    const keys = Object.keys(kept);
    // Text with no attribute left beside it reads back as the element's plain text.
    if (keys.length === 1 && keys[0] === '#text')
        return kept['#text'];
    return keys.some((key) => !key.startsWith('@_')) ? kept : undefined;
}
/** Texts as ISO 20022 carries them, and every character markup must escape; no surrounding blanks (the reader trims texts). */
const text = fc
    .array(fc.constantFrom('a', 'Z', '7', ' ', '\t', '\n', '\r', '&', '<', '>', "'", '"', ';', '#', 'é', 'ß', '€', '中', '😀', ']]>'), { minLength: 1, maxLength: 12 })
    .map((chars) => chars.join('').trim())
    .filter((value) => value !== '');
const elementName = fc.constantFrom('GrpHdr', 'MsgId', 'Amt', 'Nm', 'Ustrd', 'Tx', 'Id', 'Othr');
const attributeName = fc.constantFrom('@_Ccy', '@_Lang', '@_Cd');
/**
 * An element's value as the writer takes it: text, attributes beside text, children (some
 * repeated), nested; and what it must leave out: absent values, empty texts, attribute-only and
 * emptied elements.
 */
const element = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, text, tie('node'), fc.array(fc.oneof(text, fc.constant(undefined)), { minLength: 2, maxLength: 3 }), fc.constantFrom(undefined, '')),
    node: fc.oneof(fc.dictionary(elementName, tie('value'), { minKeys: 1, maxKeys: 4 }), fc.record({ attributes: fc.dictionary(attributeName, fc.oneof(text, fc.constant('')), { minKeys: 1, maxKeys: 2 }), text: fc.oneof(text, fc.constant('')) }).map(({ attributes, text: value }) => ({ ...attributes, '#text': value })), fc.record({ attributes: fc.dictionary(attributeName, text, { minKeys: 1, maxKeys: 2 }), children: fc.dictionary(elementName, tie('value'), { minKeys: 1, maxKeys: 3 }) }).map(({ attributes, children }) => ({ ...attributes, ...children }))),
})).node;
void describe('ISO 20022 XML writing', () => {
    void it('reads back exactly the tree it wrote, whatever the texts hold (escaping, quotes, line ends, non-ASCII), without what it leaves out', () => {
        fc.assert(fc.property(element, (body) => {
            const expected = asRead(body);
            // A message left with nothing in it is written as an empty root, which no reader takes as a message.
            fc.pre(typeof expected === 'object' && !Array.isArray(expected));
            const written = writeDocument(MESSAGE, 'FIToFIPmtStsRpt', body);
            const read = readDocument(written);
            assert.ok(read.ok, read.ok ? '' : `${read.error}\n${written}`);
            assert.equal(read.messageName, MESSAGE);
            assert.deepEqual(read.body, expected);
        }), { numRuns: 500 });
    });
    void it('escapes markup in texts and attribute values and leaves out absent and empty elements', () => {
        const written = writeDocument(MESSAGE, 'Rpt', { A: 'x<y & "z"', B: undefined, C: '', D: { '@_Ccy': 'a"b<c', '#text': '1.00' }, E: ['1', '2'], F: { G: undefined } });
        assert.equal(written, [
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
        ].join('\n'));
    });
});
//# sourceMappingURL=iso20022-xml.test.js.map