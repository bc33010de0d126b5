import type { TSchema } from '@sinclair/typebox';
import { escapePointerToken } from '../../lib/json-pointer.js';

/**
 * The bound on what a message carries that the interface does not describe (docs/security.md).
 *
 * Members the spec does not name are kept as sent and travel on (CONTRACT §9: every object of the
 * interface is open), and so do `supplementaryData` (free key-value pairs) and the fields whose
 * content the spec does not show (`Opaque`, e.g. a structured remittance's referredDocuments).
 * None of that is judged by a schema, so without this bound only the 1 MiB body limits it, and
 * each event of the transaction would carry it again. Unknown content is:
 *
 * - the value of a member an object schema does not name (its name counts too);
 * - the value of a field whose schema says nothing of its content (no `type`: Type.Unknown).
 *
 * Over all the unknown content of a message together: at most UNKNOWN_VALUES_MAX values (each
 * member and each list item at any depth counts one), UNKNOWN_BYTES_MAX bytes written as JSON
 * (names, values and punctuation, UTF-8), and no value nested deeper than UNKNOWN_DEPTH_MAX
 * levels below where the unknown content begins. The first value beyond a bound is reported at
 * its own pointer, once; the walk stops there, so its cost is bounded by the bounds, not the body.
 */

/*
 * Some content the schemas leave open is read by the connectors (the details of a regulatory
 * reporting entry, the references of structured remittance): the bounds must admit the largest
 * message whose every such part is full (test/unit/message-bounds.test.ts holds them to it;
 * docs/security.md gives the margin).
 */
/** Values (members and list items, at any depth) of a message's unknown content, all together. */
export const UNKNOWN_VALUES_MAX = 1_024;
/** Bytes of a message's unknown content, written as JSON, all together. */
export const UNKNOWN_BYTES_MAX = 65_536;
/** Levels of nesting below the member that begins unknown content (the member's own value is level 1). */
export const UNKNOWN_DEPTH_MAX = 8;

type Report = (field: string, message: string) => void;
type Json = Record<string, unknown>;

const REFERENCE = 'docs/security.md, "Unknown content"';

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Bytes of a scalar written as JSON. */
function scalarBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(JSON.stringify(value), 'utf8');
  return String(value).length;
}

class Budget {
  values = 0;
  bytes = 0;
  exceeded = false;

  constructor(private readonly report: Report) {}

  /** Count one value of `bytes` (its name and punctuation included) at `pointer`; false once a bound is passed (reported). */
  take(pointer: string, bytes: number): boolean {
    this.values += 1;
    this.bytes += bytes;
    if (this.values > UNKNOWN_VALUES_MAX) {
      return this.stop(pointer, `is beyond the ${UNKNOWN_VALUES_MAX} values a message may carry in members the interface does not name (members and list items at any depth, all together; ${REFERENCE})`);
    }
    if (this.bytes > UNKNOWN_BYTES_MAX) {
      return this.stop(pointer, `is beyond the ${UNKNOWN_BYTES_MAX} bytes (written as JSON) a message may carry in members the interface does not name, all together (${REFERENCE})`);
    }
    return true;
  }

  stop(pointer: string, message: string): false {
    this.exceeded = true;
    this.report(pointer, message);
    return false;
  }
}

/**
 * Counts an unknown value and everything in it. `overheadBytes`: what its place costs besides the
 * value (its member name and colon, and the comma before it when it is not the first).
 */
function unknownValue(value: unknown, pointer: string, depth: number, overheadBytes: number, budget: Budget): void {
  if (depth > UNKNOWN_DEPTH_MAX) {
    budget.stop(pointer, `nests members the interface does not name deeper than ${UNKNOWN_DEPTH_MAX} levels (${REFERENCE})`);
    return;
  }
  if (Array.isArray(value)) {
    if (!budget.take(pointer, overheadBytes + 2)) return;
    for (let index = 0; index < value.length && !budget.exceeded; index += 1) unknownValue(value[index], `${pointer}/${index}`, depth + 1, index === 0 ? 0 : 1, budget);
  } else if (isRecord(value)) {
    if (!budget.take(pointer, overheadBytes + 2)) return;
    let first = true;
    for (const key of Object.keys(value)) {
      if (budget.exceeded) return;
      unknownValue(value[key], `${pointer}/${escapePointerToken(key)}`, depth + 1, memberNameBytes(key) + (first ? 0 : 1), budget);
      first = false;
    }
  } else {
    budget.take(pointer, overheadBytes + scalarBytes(value));
  }
}

/** `"name":` written as JSON. */
function memberNameBytes(name: string): number {
  return Buffer.byteLength(JSON.stringify(name), 'utf8') + 1;
}

/** Keywords that say something of a value's shape; a schema with none of them takes anything (Type.Unknown). */
const SHAPE_KEYWORDS = ['type', 'properties', 'items', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref'];

function isShapeless(schema: Json): boolean {
  return !SHAPE_KEYWORDS.some((keyword) => keyword in schema);
}

/** Walks `value` along `schema`, counting what the schema does not describe. A value of another shape than the schema's is the schema's fault, not walked. */
function walk(schema: Json, value: unknown, pointer: string, budget: Budget): void {
  if (budget.exceeded) return;
  if (isShapeless(schema)) {
    // A field whose content the spec does not show: all of it is unknown content.
    unknownValue(value, pointer, 1, 0, budget);
    return;
  }
  const properties = schema['properties'];
  if (isRecord(properties) && isRecord(value)) {
    for (const key of Object.keys(value)) {
      if (budget.exceeded) return;
      const known = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
      const child = `${pointer}/${escapePointerToken(key)}`;
      if (isRecord(known)) walk(known, value[key], child, budget);
      else if (schema['additionalProperties'] !== false) unknownValue(value[key], child, 1, memberNameBytes(key), budget);
    }
    return;
  }
  const items = schema['items'];
  const maxItems = schema['maxItems'];
  // A list over its bound is one schema fault whose items are never judged (validate.ts): not walked either.
  if (isRecord(items) && Array.isArray(value) && (typeof maxItems !== 'number' || value.length <= maxItems)) {
    for (let index = 0; index < value.length && !budget.exceeded; index += 1) walk(items, value[index], `${pointer}/${index}`, budget);
  }
}

/** Reports, once, the first value of the body's unknown content beyond a bound. */
export function reportUnknownContent(schema: TSchema, body: unknown, report: Report): void {
  walk(schema, body, '', new Budget(report));
}
