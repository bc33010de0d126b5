/**
 * JSON text written from what a scheme message says, for the receiving direction: amounts stay
 * the decimal literal the document carries (`100.50` stays `100.50`), never passing through a JS
 * float, so the integrator's JSON parser (and the service's own, lib/json.ts) sees the exact amount.
 */
/** A decimal number to be written as this literal. */
export class JsonDecimal {
    literal;
    constructor(literal) {
        this.literal = literal;
    }
    /**
     * An xs:decimal as a JSON number literal: a leading `+` and superfluous leading zeros dropped,
     * `.5` written `0.5` and `5.` written `5`; the decimals written are kept (trailing zeros
     * included). Undefined for text that is no xs:decimal.
     */
    static of(text) {
        const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
        if (match === null)
            return undefined;
        const [, sign = '', integer = '', fraction] = match;
        if (integer === '' && (fraction === undefined || fraction === ''))
            return undefined;
        const whole = integer.replace(/^0+(?=\d)/, '') || '0';
        const literal = `${sign === '-' ? '-' : ''}${whole}${fraction === undefined || fraction === '' ? '' : `.${fraction}`}`;
        return new JsonDecimal(literal);
    }
}
/** Compact JSON text of `value`. Object members whose value is undefined are left out, as JSON.stringify does. */
export function jsonText(value) {
    if (value instanceof JsonDecimal)
        return value.literal;
    if (value === null || value === undefined)
        return 'null';
    if (typeof value === 'number') {
        if (!Number.isFinite(value))
            throw new RangeError('a JSON number must be finite');
        return JSON.stringify(value);
    }
    if (typeof value === 'string' || typeof value === 'boolean')
        return JSON.stringify(value);
    if (Array.isArray(value))
        return `[${value.map((item) => (item === undefined ? 'null' : jsonText(item))).join(',')}]`;
    const members = [];
    for (const [key, member] of Object.entries(value)) {
        if (member !== undefined)
            members.push(`${JSON.stringify(key)}:${jsonText(member)}`);
    }
    return `{${members.join(',')}}`;
}
/** The object without its undefined members, or undefined when nothing is left (an absent part stays absent). */
export function compact(value) {
    const entries = Object.entries(value).filter(([, member]) => member !== undefined);
    return entries.length === 0 ? undefined : Object.fromEntries(entries);
}
//# sourceMappingURL=json-text.js.map