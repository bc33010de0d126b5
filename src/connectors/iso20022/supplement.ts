import { numberText } from '../../lib/json.js';
import { escapePointerToken } from '../../lib/json-pointer.js';
import type { XmlElement } from './xml.js';

/**
 * What an integrator sent that the ISO 20022 message has no element for (its `supplementaryData`,
 * scheme data beyond what the message names, an originator's reference, tax details, remittance
 * beyond what `Strd` holds, a second name, an agent's further identifications): carried, never dropped, in a `SplmtryData` envelope in regpay's own
 * namespace, which every message of ours may hold (the XSDs leave the envelope open: `xs:any`,
 * lax). Each scalar travels as one item: the JSON pointer of its field in the integrator's message
 * (`Ptr`) and its text as sent (`Val`; a number as its literal). A scheme whose message may carry
 * no supplementary data (CBPR+) refuses such fields at intake instead (docs/connectors.md).
 */

export const MESSAGE_SUPPLEMENT_NAMESPACE = 'urn:regpay:xsd:msg.splmtrydata.01';
/** The element of the envelope holding the items. */
export const MESSAGE_SUPPLEMENT = 'MsgSplmtryData';

// eslint-disable-next-line no-control-regex -- the controls XML 1.0 cannot carry are what this finds
const NOT_IN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** One value carried in the supplement: where it was in the integrator's message, and its text. */
export interface CarriedValue {
  readonly pointer: string;
  readonly text: string;
}

/** Collects the values of a message that travel in the supplement, in the order met. */
export class Carried {
  readonly values: CarriedValue[] = [];

  /** Carries `value` found at `pointer` (within `holder` under `key`, to keep a number's literal): each scalar of it one item. */
  add(pointer: string, value: unknown, holder?: object, key?: string | number): void {
    if (value === undefined) return;
    if (value === null || typeof value === 'boolean') {
      this.values.push({ pointer, text: String(value) });
    } else if (typeof value === 'string') {
      this.values.push({ pointer, text: value });
    } else if (typeof value === 'number') {
      const literal = holder === undefined || key === undefined ? undefined : numberText(holder, key);
      this.values.push({ pointer, text: literal ?? String(value) });
    } else if (Array.isArray(value)) {
      // An empty list or object holds no value to carry.
      value.forEach((item, index) => this.add(`${pointer}/${index}`, item, value, index));
    } else if (typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>);
      for (const [member, item] of entries) this.add(`${pointer}/${escapePointerToken(member)}`, item, value, member);
    }
  }

  /** Carries every member of `holder` (an object at `pointer`) except those the ISO message writes itself. */
  addOthers(pointer: string, holder: unknown, written: readonly string[]): void {
    if (typeof holder !== 'object' || holder === null || Array.isArray(holder)) return;
    for (const [member, value] of Object.entries(holder as Record<string, unknown>)) {
      if (!written.includes(member)) this.add(`${pointer}/${escapePointerToken(member)}`, value, holder, member);
    }
  }

  /**
   * The first value whose pointer XML 1.0 cannot hold (a member name with a C0 control other than
   * TAB, LF and CR, a lone surrogate, U+FFFE or U+FFFF): intake's character rule judges texts, not
   * member names, and such a name cannot be written into `Ptr`.
   */
  unwritable(): CarriedValue | undefined {
    return this.values.find((value) => NOT_IN_XML.test(value.pointer));
  }

  get empty(): boolean {
    return this.values.length === 0;
  }
}

/** The SplmtryData element carrying `carried`, placed at `placeAndName` (an XPath-like path, Max350Text), or undefined when nothing is carried. */
export function supplementElement(placeAndName: string, carried: Carried): XmlElement | undefined {
  if (carried.empty) return undefined;
  return {
    PlcAndNm: placeAndName,
    Envlp: {
      [MESSAGE_SUPPLEMENT]: {
        '@_xmlns': MESSAGE_SUPPLEMENT_NAMESPACE,
        Itm: carried.values.map((value) => ({ Ptr: value.pointer, Val: value.text })),
      },
    },
  };
}
