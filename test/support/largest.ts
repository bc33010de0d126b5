import assert from 'node:assert/strict';
import type { TSchema } from '@sinclair/typebox';

/**
 * Test helpers for the size of what intake accepts: the largest form of a message its schema lets
 * through, built from the schema itself, so a field added to a schema is filled too.
 */

/**
 * The character that costs a scheme message the most per character the interface counts: one code
 * point, one JSON character, six bytes in XML text (`&quot;`).
 */
export const COSTLY_CHARACTER = '"';

export function costly(length: number): string {
  return COSTLY_CHARACTER.repeat(length);
}

export interface LargestOptions {
  /** The Amount written wherever the schema has an optional Amount the sample lacks. */
  readonly amount: { readonly currency: string; readonly value: number };
  /**
   * Values set after filling, by JSON pointer; `*` stands for every member or item present at that
   * level. Used for parts whose content the schema does not show, and for fields the connector
   * refuses with a reason code beyond an ISO length shorter than intake's bound (a longer value is
   * a rejection with that code, never a document). An override of `undefined` leaves the member
   * out: a value a scheme refuses at intake (CBPR+ refuses what only the supplement could carry).
   */
  readonly overrides: Readonly<Record<string, unknown>>;
}

type Schema = Readonly<Record<string, unknown>>;

/** Values for strings the schema constrains by pattern or format (the sample's own value is kept when it has one). */
const CONSTRAINED: ReadonlyArray<readonly [(schema: Schema) => boolean, string]> = [
  [(schema) => schema.pattern === '^[A-Z]{2}$', 'ZA'],
  [(schema) => String(schema.pattern).startsWith('^[A-Z0-9]{4}[A-Z]{2}'), 'DEMOZAJJXXX'],
  [(schema) => String(schema.pattern).startsWith('^[A-Z0-9]{18}'), '5493001KJTIIGC8Y1R12'],
  [(schema) => schema.format === 'date', '2026-03-02'],
];

/**
 * `sample` (a valid message) made as large as `schema` allows: every optional part present, every
 * array at its maxItems (items made from the sample's first item, else from nothing), every string
 * without pattern, format, enum or const at its maxLength in COSTLY_CHARACTER; then `overrides`.
 * Fails on an array or free string without a bound: intake would take any size of it.
 */
export function largest(schema: TSchema, sample: unknown, options: LargestOptions): unknown {
  const filled = fill(schema, structuredClone(sample), '', options);
  for (const [pointer, value] of Object.entries(options.overrides)) set(filled, pointer.split('/').slice(1), value);
  return filled;
}

function typesOf(schema: Schema): readonly string[] {
  const type = schema.type;
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

function fill(schema: Schema, sample: unknown, pointer: string, options: LargestOptions): unknown {
  const types = typesOf(schema);
  if (schema.const !== undefined) return sample ?? schema.const;
  if (Array.isArray(schema.enum)) return sample ?? (schema.enum as string[]).reduce((longest, value) => (value.length > longest.length ? value : longest));
  if (schema.pattern === '^[A-Z]{3}$') return sample ?? options.amount.currency;
  if (schema.pattern !== undefined || schema.format !== undefined) return sample ?? constrained(schema, pointer);
  if (schema['x-amount'] === true) return sample ?? structuredClone(options.amount);
  // A text-or-list is largest as a full list.
  if (types.includes('array')) return fillArray(schema, sample, pointer, options);
  if (types.includes('object')) return fillObject(schema, sample, pointer, options);
  if (types.includes('string')) {
    assert.ok(typeof schema.maxLength === 'number', `${pointer || '/'}: a string without maxLength`);
    return costly(schema.maxLength);
  }
  return sample;
}

function fillArray(schema: Schema, sample: unknown, pointer: string, options: LargestOptions): unknown[] {
  assert.ok(typeof schema.maxItems === 'number', `${pointer || '/'}: an array without maxItems`);
  const items = schema.items as Schema;
  const first = Array.isArray(sample) ? (sample as unknown[])[0] : undefined;
  return Array.from({ length: schema.maxItems }, (_, index) => fill(items, structuredClone(first), `${pointer}/${index}`, options));
}

function fillObject(schema: Schema, sample: unknown, pointer: string, options: LargestOptions): Record<string, unknown> {
  const result: Record<string, unknown> = sample !== null && typeof sample === 'object' && !Array.isArray(sample) ? (sample as Record<string, unknown>) : {};
  for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const value = fill(property, result[key], `${pointer}/${key}`, options);
    if (value !== undefined) result[key] = value;
  }
  return result;
}

function constrained(schema: Schema, pointer: string): string {
  const found = CONSTRAINED.find(([matches]) => matches(schema));
  assert.ok(found, `${pointer}: no value known for pattern ${String(schema.pattern)} or format ${String(schema.format)}`);
  return found[1];
}

/**
 * Sets `value` at the path; `*` is every member or item present there; missing members on the way
 * are created as objects. `undefined` deletes the member, creating nothing.
 */
function set(holder: unknown, tokens: readonly string[], value: unknown): void {
  const [token, ...rest] = tokens;
  if (token === undefined || holder === null || typeof holder !== 'object') return;
  const record = holder as Record<string, unknown>;
  const keys = token === '*' ? Object.keys(record) : [token];
  for (const key of keys) {
    if (rest.length === 0) {
      if (value === undefined) delete record[key];
      else record[key] = structuredClone(value);
    } else if (value === undefined) set(record[key], rest, value);
    else {
      if (record[key] === undefined) record[key] = {};
      set(record[key], rest, value);
    }
  }
}
