import type { FieldError } from '../../domain/errors.js';
import type { AddressedInstitution, SchemeOriginal } from '../../ports/scheme.js';
import { parseJson } from '../../lib/json.js';
import { jsonText, type JsonValue } from './json-text.js';
import { cutAtWord } from '../../lib/text.js';

/**
 * What reading a scheme-originated document (acmt.023, pacs.008, pain.013) yields. `mapped`: the
 * message in the integrator API's shape, valid by the domain's own validator. `refused`: the
 * header was read (so the refusal can be answered), the body could not be mapped into a valid
 * message: CH21 when something mandatory is missing, FF02 for any other fault. `unreadable`: not
 * even the header could be read; nothing can be answered.
 * `context` carries what an answer to the document repeats beyond the SchemeOriginal.
 */
export type InboundRead<Context> =
  | {
      readonly kind: 'mapped';
      readonly original: SchemeOriginal;
      readonly institution: AddressedInstitution;
      readonly bodyJson: string;
      readonly context: Context;
    }
  | { readonly kind: 'refused'; readonly original: SchemeOriginal; readonly reasonCode: string; readonly reasonText: string; readonly context: Context }
  | { readonly kind: 'unreadable'; readonly error: string };

/** AddtlInf of every ISO 20022 status and cancellation report: Max105Text. */
export const ADDITIONAL_INFORMATION_CHARS_MAX = 105;

/** Why a mapped body fails the domain validator, as the scheme is told: CH21 for a missing element, else FF02. */
export function refusalOf(errors: readonly FieldError[]): { readonly reasonCode: string; readonly reasonText: string } {
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
export function validatedJson(
  body: JsonValue,
  validate: (parsed: unknown) => { readonly ok: true } | { readonly ok: false; readonly errors: FieldError[] },
): { readonly ok: true; readonly json: string } | { readonly ok: false; readonly reasonCode: string; readonly reasonText: string } {
  const json = jsonText(body);
  const parsed = parseJson(json);
  if (!parsed.ok) return { ok: false, reasonCode: 'FF02', reasonText: cutAtWord(parsed.message, ADDITIONAL_INFORMATION_CHARS_MAX) };
  const valid = validate(parsed.value);
  return valid.ok ? { ok: true, json } : { ok: false, ...refusalOf(valid.errors) };
}

/** A UETR as SchemeOriginal keeps it: lowercased; absent stays absent. */
export function lowerUetr(uetr: string | undefined): string | undefined {
  return uetr === undefined ? undefined : uetr.toLowerCase();
}

/** The SchemeOriginal without its undefined members. */
export function originalOf(fields: { readonly messageId: string; readonly messageName: string } & { readonly [K in Exclude<keyof SchemeOriginal, 'messageId' | 'messageName'>]?: string | undefined }): SchemeOriginal {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as unknown as SchemeOriginal;
}
