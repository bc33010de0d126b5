import assert from 'node:assert/strict';
import fc from 'fast-check';
/** Test helpers for validation under arbitrary input: JSON pointers into a body, random mutations of a body, and what any refusal must say. */
/** Every pointer of a JSON tree, the root excluded. */
export function pointers(value, prefix = '') {
    if (value === null || typeof value !== 'object')
        return [];
    const keys = Array.isArray(value) ? value.map((_, index) => String(index)) : Object.keys(value);
    return keys.flatMap((key) => {
        const pointer = `${prefix}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        return [pointer, ...pointers(value[key], pointer)];
    });
}
export function resolve(value, pointer) {
    let current = value;
    for (const token of pointer.split('/').slice(1)) {
        const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
        if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key))
            return { found: false, value: undefined };
        current = current[key];
    }
    return { found: true, value: current };
}
/** The pointer of the field's parent ("" for a top-level field). */
export function parentOf(pointer) {
    return pointer.slice(0, pointer.lastIndexOf('/'));
}
/**
 * What must hold for any input once validated: ok, or a non-empty list of faults, one per field,
 * each a JSON pointer with a message. A fault saying a field is missing is checked by `missing`
 * (the validators differ in what they may name); any other must name a value of the body.
 */
export function checkRefusal(result, body, missing) {
    if (result.ok)
        return;
    assert.ok(result.errors.length > 0, 'a refusal names at least one field');
    const fields = result.errors.map((error) => error.field);
    assert.equal(new Set(fields).size, fields.length, 'one entry per field');
    for (const { field, message } of result.errors) {
        assert.ok(field === '' || field.startsWith('/'), `${field} is a JSON pointer`);
        assert.ok(message.length > 0, `${field} has a message`);
        if (message.startsWith('is required'))
            missing(field);
        else
            assert.ok(resolve(body, field).found, `${field} points into the body`);
    }
}
/** A field of the body set to one of `values`, or deleted. */
export function mutationOf(values) {
    return fc.oneof(fc.record({ kind: fc.constant('set'), pointerIndex: fc.nat(), value: values }), fc.record({ kind: fc.constant('delete'), pointerIndex: fc.nat() }));
}
export function apply(body, change) {
    const all = pointers(body);
    if (all.length === 0)
        return;
    const pointer = all[change.pointerIndex % all.length] ?? '';
    const parentPointer = parentOf(pointer);
    const key = (pointer.split('/').pop() ?? '').replaceAll('~1', '/').replaceAll('~0', '~');
    const parent = resolve(body, parentPointer).value;
    if (parent === null || typeof parent !== 'object')
        return;
    const holder = parent;
    // Removing an array item shortens the array: JSON has no holes.
    if (change.kind === 'delete' && Array.isArray(parent))
        parent.splice(Number(key), 1);
    else if (change.kind === 'delete')
        delete holder[key];
    // A copy: generated values are shared between runs, and inserting one twice would build a cycle, which no JSON body has.
    else
        holder[key] = structuredClone(change.value);
}
/** Characters at the edges of what a scheme message carries: ones it cannot (controls, lone surrogates, noncharacters) and ones it must escape or encode. */
const EDGE_CHARACTERS = ['\u0000', '\u0007', '\u001B', '\t', '\n', '\r', '\u007F', '\u0085', '\uD800', '\uDFFF', '\uFFFE', '\uFFFF', '"', '&', '<', ']]>', '😀', 'é', ' '];
/** Any text: ordinary letters mixed with edge characters and any UTF-16 code unit at all, or any code points. */
export const anyText = fc.oneof(fc.string({
    unit: fc.oneof(fc.constantFrom('a', 'Z', '0', '-'), fc.constantFrom(...EDGE_CHARACTERS), fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code))),
    maxLength: 40,
}), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('x'.repeat(141), 'x'.repeat(2049), '😀'.repeat(1401)));
/** Lengths around the bounds of the lists of a message, and far beyond them. */
const LIST_LENGTHS = [2, 3, 4, 5, 6, 7, 8, 10, 11, 100, 101, 5_000];
/** A list of `item`, now short, now as long as a bound or far longer (one item repeated, which is cheap to build). */
export function anyList(item) {
    return fc.oneof(fc.array(item, { maxLength: 12 }), fc.tuple(fc.constantFrom(...LIST_LENGTHS), item).map(([length, value]) => Array.from({ length }, () => value)));
}
/** The pointers of every text of a JSON tree. */
export function textPointers(value) {
    return pointers(value).filter((pointer) => typeof resolve(value, pointer).value === 'string');
}
/** Sets `value` at `pointer`, creating the objects missing on the way (an object or list that is not one is replaced). */
export function place(body, pointer, value) {
    const tokens = pointer
        .split('/')
        .slice(1)
        .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
    let holder = body;
    for (const token of tokens.slice(0, -1)) {
        const next = holder[token];
        if (next === null || typeof next !== 'object')
            holder[token] = {};
        holder = holder[token];
    }
    holder[tokens.at(-1) ?? ''] = structuredClone(value);
}
//# sourceMappingURL=fuzz.js.map