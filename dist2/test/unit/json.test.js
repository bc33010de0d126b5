import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JSON_DEPTH_MAX, numberText, parseJson, parseJsonFast, parseJsonReference } from '../../src/lib/json.js';
import { CREDIT_TRANSFER_FIXTURES, creditTransfer } from '../fixtures/credit-transfer.js';
function parsed(text) {
    const result = parseJson(text);
    assert.ok(result.ok, `expected ${text} to parse: ${result.ok ? '' : result.message}`);
    return result.value;
}
function refusal(result) {
    assert.equal(result.ok, false, 'expected a refusal');
    return result.ok ? '' : result.message;
}
function record(value) {
    assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value), 'expected an object');
    return value;
}
/** Every number of a parsed value with the literal recorded for it, as [pointer, value, literal]. */
function numberLiterals(value, pointer = '') {
    if (value === null || typeof value !== 'object')
        return [];
    const entries = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
    return entries.flatMap(([key, item]) => typeof item === 'number' ? [[`${pointer}/${key}`, item, numberText(value, key)]] : numberLiterals(item, `${pointer}/${key}`));
}
void describe('parseJson', () => {
    void it('keeps the exact text of every number while returning plain numbers', () => {
        const value = record(parsed('{"a": 10.00, "b": [1.50, 2E2, -0.0], "c": {"d": 1e-7, "e": 12345678901234567890}}'));
        assert.equal(value.a, 10);
        assert.equal(numberText(value, 'a'), '10.00');
        const list = value.b;
        assert.deepEqual(list, [1.5, 200, -0]);
        assert.equal(numberText(list, 1), '2E2');
        assert.equal(numberText(list, '0'), '1.50', 'an array index may be given as a string');
        assert.equal(numberText(list, 2), '-0.0');
        const inner = record(value.c);
        assert.equal(numberText(inner, 'd'), '1e-7');
        assert.equal(numberText(inner, 'e'), '12345678901234567890');
    });
    void it('tells no literal for objects built in code, for strings, or after the number was replaced', () => {
        assert.equal(numberText({ value: 10 }, 'value'), undefined);
        const value = record(parsed('{"amount": 10.00, "text": "10.00"}'));
        assert.equal(numberText(value, 'text'), undefined);
        value.amount = 10.5;
        assert.equal(numberText(value, 'amount'), undefined, 'a literal must never describe a number that is no longer there');
    });
    void it('keeps strings, booleans, null and unknown fields exactly as sent', () => {
        const text = '{"s": "\\u00e9\\n\\"q\\"", "t": true, "f": false, "n": null, "extra": {"deep": [{"x": "y"}]}}';
        assert.deepEqual(parsed(text), JSON.parse(text));
    });
    void it('parses a number, string or array at the top level', () => {
        assert.equal(parsed(' 10.50 '), 10.5);
        assert.equal(parsed('"x"'), 'x');
        assert.deepEqual(parsed('[1, 2.0]'), [1, 2]);
    });
    void it('refuses a "__proto__" key anywhere, as prototype poisoning', () => {
        assert.match(refusal(parseJson('{"__proto__": {"admin": true}}')), /__proto__/);
        assert.match(refusal(parseJson('{"a": [{"b": {"__proto__": 1}}]}')), /__proto__/);
        assert.equal({}.admin, undefined);
    });
    void it('refuses a "constructor" key holding "prototype", and accepts other constructor values', () => {
        assert.match(refusal(parseJson('{"constructor": {"prototype": {"admin": true}}}')), /constructor/);
        assert.deepEqual(parsed('{"constructor": "Acme Builders"}'), { constructor: 'Acme Builders' });
        assert.deepEqual(parsed('{"constructor": {"name": "x"}}'), { constructor: { name: 'x' } });
    });
    void it('refuses numbers outside the range of a double, and takes tiny ones as written', () => {
        assert.match(refusal(parseJson('{"value": 1e400}')), /1e400/);
        assert.match(refusal(parseJson('[-1e309]')), /-1e309/);
        const value = record(parsed('{"value": 1e-400}'));
        assert.equal(numberText(value, 'value'), '1e-400');
    });
    void it('refuses malformed JSON with a message that says where', () => {
        for (const text of ['', ' ', '{', '{"a":}', '{"a": 1,}', '[1 2]', '{"a": 01}', '{"a": 1.}', '{"a": .5}', '{"a": +1}', '{a: 1}', "{'a': 1}", '{"a": 1} x', 'NaN', '"\u0001"']) {
            const message = refusal(parseJson(text));
            assert.ok(message.length > 0, `a message for ${JSON.stringify(text)}`);
        }
        assert.match(refusal(parseJson('{"a": 1,, "b": 2}')), /position \d+/);
    });
    void it('refuses a key given twice', () => {
        assert.match(refusal(parseJson('{"value": 10, "value": 1000}')), /duplicate key "value"/);
    });
    void it('names the JSON pointer of what it refuses, so the ErrorDetail can name the field', () => {
        const pointerOf = (text) => {
            const result = parseJson(text);
            assert.ok(!result.ok, `expected ${text} to be refused`);
            return result.pointer;
        };
        assert.equal(pointerOf('{"a": {"b": 1, "c": [0, {"b": 2, "b": 3}]}}'), '/a/c/1/b');
        assert.equal(pointerOf('{"a/b": {"x": 1, "x": 2}}'), '/a~1b/x');
        assert.equal(pointerOf('{"a": [{"b": {"__proto__": 1}}]}'), '/a/0/b/__proto__');
        assert.equal(pointerOf('{"a": {"constructor": {"prototype": {}}}}'), '/a/constructor');
        assert.equal(pointerOf('{"amount": {"value": 1e400}}'), '/amount/value');
        assert.equal(pointerOf('{"a": [1, 2, }'), '/a/2');
        assert.equal(pointerOf('{"a": 1, "b": x}'), '/b');
        assert.equal(pointerOf('{"a": "\\u0000", "b": {"c": 1, "c": 2}}'), '/b/c');
        assert.equal(pointerOf('{"a": "\\u0001", "b": "\u0001"}'), '/b');
        assert.equal(pointerOf(''), '');
        assert.equal(pointerOf('x'), '');
    });
    void it(`refuses nesting deeper than ${JSON_DEPTH_MAX} levels, even far deeper, without throwing`, () => {
        assert.ok(parseJson('['.repeat(JSON_DEPTH_MAX) + ']'.repeat(JSON_DEPTH_MAX)).ok);
        assert.match(refusal(parseJson('['.repeat(JSON_DEPTH_MAX + 1) + ']'.repeat(JSON_DEPTH_MAX + 1))), /nesting/);
        assert.match(refusal(parseJson('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000))), /nesting/);
        assert.equal(parseJson('['.repeat(100_000)).ok, false);
    });
    void it('parses a text holding the escape \\u0000 like any other', () => {
        assert.deepEqual(parsed('{"a": "\\u0000", "b": 1.0}'), { a: '\u0000', b: 1 });
    });
    void it('stays linear on hostile strings (many escaped quotes, unterminated)', () => {
        const hostile = '"' + '\\"'.repeat(200_000);
        const started = process.hrtime.bigint();
        assert.equal(parseJson(hostile).ok, false);
        assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 2000, 'parsed in well under two seconds');
    });
    void it('agrees with JSON.parse on arbitrary JSON', () => {
        fc.assert(fc.property(fc.json({ maxDepth: 6 }), (text) => {
            const result = parseJson(text);
            if (/"(__proto__|constructor)"/.test(text) && !result.ok)
                return;
            assert.ok(result.ok, result.ok ? '' : result.message);
            assert.deepEqual(result.value, JSON.parse(text));
        }), { numRuns: 400 });
    });
    void it('agrees with the lossless-json reference path on values and literals, whatever the number spelling and spacing', () => {
        const digits = fc.string({ unit: fc.constantFrom('0', '1', '5', '9'), minLength: 1, maxLength: 12 });
        const literal = fc
            .tuple(fc.boolean(), digits, fc.option(digits), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 30 }))))
            .map(([negative, int, fraction, exponent]) => {
            const integer = int.replace(/^0+(?=\d)/, '');
            return `${negative ? '-' : ''}${integer}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `${exponent[0]}${exponent[1]}${exponent[2]}`}`;
        });
        const space = fc.constantFrom('', ' ', '\n  ', '\t');
        const document = fc.letrec((tie) => ({
            value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, literal, fc.json({ maxDepth: 0 }), fc.tuple(space, fc.array(tie('value'), { maxLength: 4 }), space).map(([before, items, after]) => `[${before}${items.join(`,${before}`)}${after}]`), fc
                .tuple(space, fc.uniqueArray(fc.tuple(fc.string({ maxLength: 6 }), tie('value')), { maxLength: 4, selector: ([key]) => key }), space)
                .map(([before, members, after]) => `{${before}${members.map(([key, item]) => `${JSON.stringify(key)}${after}:${before}${item}`).join(',')}${after}}`)),
        })).value;
        let decidedFast = 0;
        fc.assert(fc.property(document, (text) => {
            const reference = parseJsonReference(text);
            const fast = parseJsonFast(text);
            if (fast === undefined)
                return;
            decidedFast++;
            assert.equal(fast.ok, reference.ok, `${text}: ${fast.ok ? '' : fast.message} / ${reference.ok ? '' : reference.message}`);
            if (!fast.ok || !reference.ok)
                return;
            assert.deepEqual(fast.value, reference.value);
            assert.deepEqual(numberLiterals(fast.value), numberLiterals(reference.value));
            for (const [pointer, , text] of numberLiterals(fast.value))
                assert.notEqual(text, undefined, `a literal for ${pointer}`);
        }), { numRuns: 500 });
        assert.ok(decidedFast > 250, `the fast path decided ${decidedFast} of 500 documents`);
    });
    void it('decides every sample credit transfer on the fast path, with the literals of the reference path', () => {
        for (const kind of CREDIT_TRANSFER_FIXTURES) {
            // Spell every amount with a trailing zero, which only a kept literal can show.
            const text = JSON.stringify(creditTransfer(kind), null, 2).replace(/"value": (\d+(?:\.\d+)?)/g, (_, amount) => amount.includes('.') ? `"value": ${amount}0` : `"value": ${amount}.00`);
            const fast = parseJsonFast(text);
            assert.ok(fast?.ok, kind);
            const reference = parseJsonReference(text);
            assert.ok(reference.ok);
            assert.deepEqual(numberLiterals(fast.value), numberLiterals(reference.value));
            assert.ok(numberLiterals(fast.value).some(([, number, literal]) => literal !== String(number)), kind);
        }
    });
});
//# sourceMappingURL=json.test.js.map