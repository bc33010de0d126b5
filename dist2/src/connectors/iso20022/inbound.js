import { parseJson } from '../../lib/json.js';
import { jsonText } from './json-text.js';
import { cutAtWord } from './text.js';
/** AddtlInf of every ISO 20022 status and cancellation report: Max105Text. */
export const ADDITIONAL_INFORMATION_CHARS_MAX = 105;
/** Why a mapped body fails the domain validator, as the scheme is told: CH21 for a missing element, else FF02. */
export function refusalOf(errors) {
    const missing = errors.find((error) => error.message.startsWith('is required'));
    const first = missing ?? errors[0];
    const reasonText = first === undefined ? 'the message does not map into a valid message' : `${first.field || '/'} ${first.message}`;
    return { reasonCode: missing === undefined ? 'FF02' : 'CH21', reasonText: cutAtWord(reasonText, ADDITIONAL_INFORMATION_CHARS_MAX) };
}
/**
 * The body as JSON text, validated the way the service validates what an integrator sends: the
 * text is parsed back by the service's own parser (so amounts are judged from their literal) and
 * handed to `validate`.
 */
export function validatedJson(body, validate) {
    const json = jsonText(body);
    const parsed = parseJson(json);
    if (!parsed.ok)
        return { ok: false, reasonCode: 'FF02', reasonText: cutAtWord(parsed.message, ADDITIONAL_INFORMATION_CHARS_MAX) };
    const valid = validate(parsed.value);
    return valid.ok ? { ok: true, json } : { ok: false, ...refusalOf(valid.errors) };
}
/** A UETR as SchemeOriginal keeps it: lowercased; absent stays absent. */
export function lowerUetr(uetr) {
    return uetr === undefined ? undefined : uetr.toLowerCase();
}
/** The SchemeOriginal without its undefined members. */
export function originalOf(fields) {
    return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
//# sourceMappingURL=inbound.js.map