import { parse } from 'lossless-json';
import { jsonPointer } from './json-pointer.js';
/**
 * JSON body parsing that keeps the exact text of every number, because money is judged from
 * what the sender wrote (`10.00` and `10.000` are the same float but not the same amount for a
 * two-decimal currency). Numbers come back as ordinary JS numbers, so schema validation and
 * pass-through of unknown fields work as usual; the literal of each is remembered beside its
 * holder object and read back with numberText().
 *
 * Two paths give the same result (a property test holds them to it):
 * - the reference path parses with lossless-json, which hands every number over as its text.
 *   Its reviver would give the holder as `this` (revive.js calls `reviver.call(context, key,
 *   value)`), but we walk the result ourselves instead: one pass bounds the nesting depth,
 *   refuses prototype-poisoning keys and converts numbers, without a function call per value;
 * - the fast path, tried first, lets the native JSON.parse do the work (lossless-json is a
 *   character-at-a-time parser, far slower than the native one; bench/README.md): a linear scan
 *   wraps every number literal in a string that starts with U+0000, JSON.parse parses that, and
 *   the walk turns the markers back into numbers. Whenever it cannot be sure (a literal that is
 *   not a JSON number, a marker in a key, a duplicate key, a `\u0000` escape in the text, or any
 *   syntax error) it steps aside and the reference path decides, which also words every error
 *   message.
 */
/** Deeper nesting is refused: no message of the interface comes close, and it bounds recursion in everything downstream. */
export const JSON_DEPTH_MAX = 64;
/** A number as lossless-json found it: only its literal text, converted by the walk. */
class NumberLiteral {
    text;
    constructor(text) {
        this.text = text;
    }
}
/** Refusal raised inside a walk or by the parser; never escapes parseJson. `path` grows as it bubbles out of the walk. */
class Refusal extends Error {
    path;
    constructor(message, path = []) {
        super(message);
        this.path = path;
    }
}
function refused(error) {
    return { ok: false, message: error.message, pointer: jsonPointer(error.path) };
}
/** The fast path cannot decide this text; never escapes parseJson. */
class StepAside extends Error {
}
const numberTexts = new WeakMap();
/** JSON number grammar (RFC 8259 §6). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/**
 * Marks a number literal in the fast path's rewritten text: the JSON escape for U+0000, which
 * JSON.parse turns into that character. Parsed source strings cannot start with it, since a raw
 * U+0000 is invalid JSON and texts holding its escape go to the reference path.
 */
const MARK_ESCAPE = '\\u0000';
export function parseJson(text) {
    return parseJsonFast(text) ?? parseJsonReference(text);
}
/** The straightforward lossless-json path; parseJson() must always agree with it. */
export function parseJsonReference(text) {
    let raw;
    try {
        raw = parse(text, null, {
            parseNumber: (literal) => new NumberLiteral(literal),
            onDuplicateKey: ({ key, position }) => {
                // Two values for one key make the message ambiguous (RFC 8259 §4 leaves the meaning open), so neither is chosen.
                // `position` is just inside the second key's opening quote.
                throw new Refusal(`duplicate key "${key}" at position ${position}`, [...pathAt(text, position - 1, false), key]);
            },
        });
    }
    catch (error) {
        if (error instanceof Refusal)
            return refused(error);
        if (error instanceof SyntaxError) {
            const position = /at position (\d+)/.exec(error.message)?.[1];
            return { ok: false, message: error.message, pointer: position === undefined ? '' : jsonPointer(pathAt(text, Number(position), true)) };
        }
        // The parser recurses per nesting level; an absurdly deep document exhausts the stack before our own limit is seen.
        if (error instanceof RangeError)
            return { ok: false, message: `nesting deeper than ${JSON_DEPTH_MAX} levels`, pointer: '' };
        throw error;
    }
    try {
        return { ok: true, value: new Walk(literalOfNumberLiteral).convert(raw, 0) };
    }
    catch (error) {
        if (error instanceof Refusal)
            return refused(error);
        throw error;
    }
}
/** The fast path alone: undefined when it steps aside for the reference path. Exported for the tests that hold the two paths together. */
export function parseJsonFast(text) {
    if (text.includes('\\u0000'))
        return undefined;
    const scanned = markNumbers(text);
    if (scanned === undefined)
        return undefined;
    let raw;
    try {
        raw = JSON.parse(scanned.marked);
    }
    catch {
        return undefined;
    }
    const walk = new Walk(literalOfMarker);
    try {
        const value = walk.convert(raw, 0);
        // JSON.parse keeps the last of duplicate keys silently; fewer keys than the text holds means there was one.
        return walk.keys === scanned.keys ? { ok: true, value } : undefined;
    }
    catch (error) {
        if (error instanceof Refusal)
            return refused(error);
        if (error instanceof StepAside)
            return undefined;
        throw error;
    }
}
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
function isJsonWhitespace(code) {
    return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}
function isNumberPart(code) {
    return (code >= DIGIT_0 && code <= DIGIT_9) || code === DOT || code === MINUS || code === PLUS || code === 0x65 || code === 0x45;
}
/**
 * Rewrites every number literal outside strings as a marked string ("10.00" becomes
 * `"\u000010.00"`) and counts the object keys. Linear: strings are skipped with indexOf.
 * undefined when a string is unterminated (the reference path words the error).
 */
function markNumbers(text) {
    let keys = 0;
    let marked = '';
    let copied = 0;
    let index = 0;
    while (index < text.length) {
        const code = text.charCodeAt(index);
        if (code === QUOTE) {
            const end = stringEnd(text, index);
            if (end === -1)
                return undefined;
            index = end + 1;
            if (isKey(text, end))
                keys++;
        }
        else if (code === MINUS || (code >= DIGIT_0 && code <= DIGIT_9)) {
            let end = index + 1;
            while (end < text.length && isNumberPart(text.charCodeAt(end)))
                end++;
            marked += `${text.slice(copied, index)}"${MARK_ESCAPE}${text.slice(index, end)}"`;
            copied = end;
            index = end;
        }
        else {
            index++;
        }
    }
    return { marked: copied === 0 ? text : marked + text.slice(copied), keys };
}
/** The closing quote of the string whose opening quote is at `start`; -1 when it is unterminated. */
function stringEnd(text, start) {
    let end = text.indexOf('"', start + 1);
    while (end !== -1 && isEscaped(text, end))
        end = text.indexOf('"', end + 1);
    return end;
}
/** Whether the string closed at `end` is an object key: a colon follows it. */
function isKey(text, end) {
    let next = end + 1;
    while (next < text.length && isJsonWhitespace(text.charCodeAt(next)))
        next++;
    return text.charCodeAt(next) === COLON;
}
/** Whether the quote at `position` is escaped: preceded by an odd run of backslashes. */
function isEscaped(text, position) {
    let backslashes = 0;
    while (text.charCodeAt(position - 1 - backslashes) === BACKSLASH)
        backslashes++;
    return backslashes % 2 === 1;
}
/** The literal of a value if it is a number in the reference path's form. */
function literalOfNumberLiteral(value) {
    return value instanceof NumberLiteral ? value.text : undefined;
}
/** The literal of a value if it is a marked number of the fast path; a mark on a non-number means the scan misread the text. */
function literalOfMarker(value) {
    if (typeof value !== 'string' || value.charCodeAt(0) !== 0)
        return undefined;
    const literal = value.slice(1);
    if (!JSON_NUMBER.test(literal))
        throw new StepAside();
    return literal;
}
/**
 * One pass over a parsed document: numbers (as the parser handed them over) become JS numbers
 * with their literal remembered, nesting is bounded, poisoning keys are refused, keys are counted.
 */
class Walk {
    literalOf;
    keys = 0;
    constructor(literalOf) {
        this.literalOf = literalOf;
    }
    convert(value, depth) {
        const literal = this.literalOf(value);
        if (literal !== undefined)
            return toNumber(literal);
        if (value === null || typeof value !== 'object')
            return value;
        if (depth >= JSON_DEPTH_MAX)
            throw new Refusal(`nesting deeper than ${JSON_DEPTH_MAX} levels`);
        if (Array.isArray(value)) {
            const items = value;
            for (let index = 0; index < items.length; index++)
                this.convertMember(items, index, items[index], depth);
            return items;
        }
        const record = value;
        const keys = Object.keys(record);
        this.keys += keys.length;
        for (const key of keys) {
            const item = record[key];
            // Same rule as secure-json-parse: these keys let a later merge or clone rewrite Object.prototype.
            if (key === '__proto__')
                throw new Refusal('key "__proto__" is not allowed', [key]);
            if (key === 'constructor' && item !== null && typeof item === 'object' && Object.hasOwn(item, 'prototype')) {
                throw new Refusal('key "constructor" holding "prototype" is not allowed', [key]);
            }
            if (key.charCodeAt(0) === 0)
                throw new StepAside();
            this.convertMember(record, key, item, depth);
        }
        return record;
    }
    convertMember(holder, key, item, depth) {
        try {
            const literal = this.literalOf(item);
            if (literal !== undefined) {
                holder[key] = toNumber(literal);
                remember(holder, key, literal);
            }
            else if (item !== null && typeof item === 'object') {
                this.convert(item, depth + 1);
            }
        }
        catch (error) {
            if (error instanceof Refusal)
                error.path.unshift(key);
            throw error;
        }
    }
}
/**
 * The path of keys and indices that the parser was inside at `position` of `text` (a linear
 * scan, only run to word a refusal). With `current`, the innermost object's latest key counts
 * (a syntax error there lies in that key's value); without it, the path ends at that object
 * (a duplicate key names its holder, and the caller appends the key).
 */
function pathAt(text, position, current) {
    const frames = [];
    let index = 0;
    while (index < position && index < text.length) {
        const code = text.charCodeAt(index);
        const top = frames.at(-1);
        if (code === QUOTE) {
            const end = stringEnd(text, index);
            if (end === -1)
                break;
            if (top !== undefined && !top.array && isKey(text, end))
                top.key = parsedKey(text.slice(index, end + 1));
            index = end + 1;
            continue;
        }
        if (code === OPEN_OBJECT || code === OPEN_ARRAY)
            frames.push({ key: code === OPEN_ARRAY ? 0 : undefined, array: code === OPEN_ARRAY });
        else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY)
            frames.pop();
        else if (code === COMMA && top !== undefined)
            top.key = top.array ? top.key + 1 : undefined;
        index++;
    }
    const path = [];
    frames.forEach((frame, at) => {
        if (frame.key !== undefined && (current || at < frames.length - 1))
            path.push(frame.key);
    });
    return path;
}
function parsedKey(quoted) {
    try {
        return JSON.parse(quoted);
    }
    catch {
        return quoted.slice(1, -1);
    }
}
/**
 * The literal text of the number at `holder[key]` as it appeared in the parsed JSON, e.g. "10.00".
 * undefined when the holder was not produced by parseJson, or when the value was replaced since
 * (the text would then describe a number that is no longer there).
 */
export function numberText(holder, key) {
    const texts = numberTexts.get(holder);
    if (texts === undefined)
        return undefined;
    const normalized = Array.isArray(holder) ? arrayIndex(key) : String(key);
    if (normalized === undefined)
        return undefined;
    const literal = texts.get(normalized);
    if (literal === undefined)
        return undefined;
    const current = holder[normalized];
    return typeof current === 'number' && current === Number(literal) ? literal : undefined;
}
function arrayIndex(key) {
    if (typeof key === 'number')
        return key;
    const index = Number(key);
    return String(index) === key ? index : undefined;
}
function toNumber(literal) {
    const number = Number(literal);
    if (!Number.isFinite(number))
        throw new Refusal(`number ${literal} is outside the range of a double`);
    return number;
}
function remember(holder, key, text) {
    let texts = numberTexts.get(holder);
    if (texts === undefined) {
        texts = new Map();
        numberTexts.set(holder, texts);
    }
    texts.set(key, text);
}
//# sourceMappingURL=json.js.map