import assert from 'node:assert/strict';
import { parseJson } from '../../src/lib/json.js';
/** Test helpers for message validation: samples edited by JSON pointer, bodies as sent, and what a validator accepted or refused. */
/** The value that, given to edit(), deletes the field. */
export const REMOVE = Symbol('remove');
/** Sets (or, with REMOVE, deletes) the value at a JSON pointer of the message; the parent must exist. */
export function edit(message, pointer, value) {
    const tokens = pointer.split('/').slice(1).map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = tokens.pop();
    assert.ok(last !== undefined, 'a pointer below the root');
    let holder = message;
    for (const token of tokens) {
        assert.ok(holder !== null && typeof holder === 'object', `${pointer}: ${token} has a parent`);
        holder = holder[token];
    }
    assert.ok(holder !== null && typeof holder === 'object', `${pointer} has a parent`);
    const record = holder;
    if (value === REMOVE)
        delete record[last];
    else
        record[last] = value;
}
/** `message` itself with the edits applied, keyed by JSON pointer. */
export function withEdits(message, edits) {
    for (const [pointer, value] of Object.entries(edits))
        edit(message, pointer, value);
    return message;
}
/** The body as an integrator would send it: JSON text, parsed by parseJson, with `change` applied to the text first. */
export function sent(message, change = (text) => text) {
    const result = parseJson(change(JSON.stringify(message, null, 2)));
    assert.ok(result.ok, result.ok ? '' : result.message);
    return result.value;
}
/** The value of a validation that must have accepted the message. */
export function accepted(result) {
    assert.ok(result.ok, `expected valid, got ${result.ok ? '' : JSON.stringify(result.errors, null, 1)}`);
    return result.value;
}
/** The errors of a validation that must have refused the message, as a map from pointer to message. */
export function faultsOf(result) {
    assert.equal(result.ok, false, 'expected the message to be refused');
    if (result.ok)
        return new Map();
    const map = new Map(result.errors.map((error) => [error.field, error.message]));
    assert.equal(map.size, result.errors.length, 'one entry per field');
    return map;
}
/** Refused with exactly one fault, on `field`, whose message matches. */
export function onlyFault(found, field, pattern) {
    assert.deepEqual([...found.keys()], [field], `faults: ${JSON.stringify([...found])}`);
    const text = found.get(field) ?? '';
    if (typeof pattern === 'string')
        assert.equal(text, pattern);
    else
        assert.match(text, pattern);
}
/** A response the service wrote, as an integrator reads it: checked to be JSON that `check` (its schema) accepts. */
export function readResponse(text, check) {
    const parsed = parseJson(text);
    assert.ok(parsed.ok, `the response is JSON: ${text}`);
    const conforms = check(parsed.value);
    assert.ok(conforms.ok, `the response follows its schema: ${conforms.ok ? '' : JSON.stringify(conforms.errors)}`);
    return parsed.value;
}
/** The checks of one validator: valid() gives what it accepted, faults() what it refused, refusedOnly() asserts a refusal with one fault. */
export function checksOf(validate) {
    const faults = (message) => faultsOf(validate(message));
    return {
        valid: (message) => accepted(validate(message)),
        faults,
        refusedOnly: (message, field, pattern) => onlyFault(faults(message), field, pattern),
    };
}
//# sourceMappingURL=validation.js.map