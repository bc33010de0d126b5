import { parse } from 'lossless-json';

/**
 * JSON body parsing that keeps the exact text of every number, because money is judged from
 * what the sender wrote (`10.00` and `10.000` are the same float but not the same amount for a
 * two-decimal currency). Numbers come back as ordinary JS numbers, so schema validation and
 * pass-through of unknown fields work as usual; the literal of each is remembered beside its
 * holder object and read back with numberText().
 *
 * lossless-json's reviver does receive the holder as `this` (revive.js calls
 * `reviver.call(context, key, value)`), but we walk the result ourselves instead: one pass
 * bounds the nesting depth, refuses prototype-poisoning keys and converts numbers, without a
 * function call per value.
 */

/** Deeper nesting is refused: no message of the interface comes close, and it bounds recursion in everything downstream. */
export const JSON_DEPTH_MAX = 64;

export type ParseJsonResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** A number as lossless-json found it: only its literal text, converted by the walk. */
class NumberLiteral {
  constructor(readonly text: string) {}
}

/** Refusal raised inside the walk; never escapes parseJson. */
class Refusal extends Error {}

const numberTexts = new WeakMap<object, Map<string | number, string>>();

export function parseJson(text: string): ParseJsonResult {
  let raw: unknown;
  try {
    raw = parse(text, null, {
      parseNumber: (literal) => new NumberLiteral(literal),
      onDuplicateKey: ({ key, position }) => {
        // Two values for one key make the message ambiguous (RFC 8259 §4 leaves the meaning open), so neither is chosen.
        throw new Refusal(`duplicate key "${key}" at position ${position}`);
      },
    });
  } catch (error) {
    if (error instanceof Refusal || error instanceof SyntaxError) return { ok: false, message: error.message };
    // The parser recurses per nesting level; an absurdly deep document exhausts the stack before our own limit is seen.
    if (error instanceof RangeError) return { ok: false, message: `nesting deeper than ${JSON_DEPTH_MAX} levels` };
    throw error;
  }
  try {
    return { ok: true, value: convert(raw, 0) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, message: error.message };
    throw error;
  }
}

/**
 * The literal text of the number at `holder[key]` as it appeared in the parsed JSON, e.g. "10.00".
 * undefined when the holder was not produced by parseJson, or when the value was replaced since
 * (the text would then describe a number that is no longer there).
 */
export function numberText(holder: object, key: string | number): string | undefined {
  const texts = numberTexts.get(holder);
  if (texts === undefined) return undefined;
  const normalized = Array.isArray(holder) ? arrayIndex(key) : String(key);
  if (normalized === undefined) return undefined;
  const literal = texts.get(normalized);
  if (literal === undefined) return undefined;
  const current: unknown = (holder as Record<string | number, unknown>)[normalized];
  return typeof current === 'number' && current === Number(literal) ? literal : undefined;
}

function arrayIndex(key: string | number): number | undefined {
  if (typeof key === 'number') return key;
  const index = Number(key);
  return String(index) === key ? index : undefined;
}

function convert(value: unknown, depth: number): unknown {
  if (value instanceof NumberLiteral) return toNumber(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= JSON_DEPTH_MAX) throw new Refusal(`nesting deeper than ${JSON_DEPTH_MAX} levels`);
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      if (item instanceof NumberLiteral) {
        items[index] = toNumber(item);
        remember(items, index, item.text);
      } else if (item !== null && typeof item === 'object') {
        convert(item, depth + 1);
      }
    }
    return items;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    // Same rule as secure-json-parse: these keys let a later merge or clone rewrite Object.prototype.
    if (key === '__proto__') throw new Refusal('key "__proto__" is not allowed');
    if (key === 'constructor' && item !== null && typeof item === 'object' && Object.hasOwn(item, 'prototype')) {
      throw new Refusal('key "constructor" holding "prototype" is not allowed');
    }
    if (item instanceof NumberLiteral) {
      record[key] = toNumber(item);
      remember(record, key, item.text);
    } else if (item !== null && typeof item === 'object') {
      convert(item, depth + 1);
    }
  }
  return record;
}

function toNumber(literal: NumberLiteral): number {
  const number = Number(literal.text);
  if (!Number.isFinite(number)) throw new Refusal(`number ${literal.text} is outside the range of a double`);
  return number;
}

function remember(holder: object, key: string | number, text: string): void {
  let texts = numberTexts.get(holder);
  if (texts === undefined) {
    texts = new Map();
    numberTexts.set(holder, texts);
  }
  texts.set(key, text);
}
