import type { FieldError } from '../../domain/errors.js';
import { decodeCursor, isRecord } from './admin.js';

/** Longest text a list's query parameter may be (an id, a name, a cursor). */
export const QUERY_TEXT_CHARS_MAX = 200;

/**
 * The reader of a list's query string: a parameter not in `known` is refused, and each reader
 * below takes one parameter by its rule and names it in `errors` when it breaks it, so an
 * operator sees every bad parameter in one answer.
 */
export function queryReader(query: unknown, known: readonly string[]) {
  const input = isRecord(query) ? query : {};
  const errors: FieldError[] = [];
  for (const key of Object.keys(input)) {
    if (!known.includes(key)) errors.push({ field: `/${key}`, message: 'is not a known query parameter' });
  }
  const text = (key: string, valid: (value: string) => boolean, message: string): string | undefined => {
    const value = input[key];
    if (value === undefined) return undefined;
    if (typeof value === 'string' && value.length > 0 && value.length <= QUERY_TEXT_CHARS_MAX && valid(value)) return value;
    errors.push({ field: `/${key}`, message });
    return undefined;
  };
  return {
    errors,
    text,
    /** One of `values`. */
    oneOf: <T extends string>(key: string, values: readonly T[]): T | undefined =>
      text(key, (value) => (values as readonly string[]).includes(value), `must be one of ${values.join(', ')}`) as T | undefined,
    /** The page size: an integer from 1 to `max`, `fallback` when not given. */
    limit: (max: number, fallback: number): number => {
      const value = text('limit', (candidate) => /^[0-9]{1,4}$/.test(candidate) && Number(candidate) >= 1 && Number(candidate) <= max, `must be an integer from 1 to ${max}`);
      return value === undefined ? fallback : Number(value);
    },
    /** The position a page token (`cursor`) names. */
    cursor: (): { createdAt: number; id: string } | undefined => {
      const value = text('cursor', (candidate) => decodeCursor(candidate) !== undefined, 'is not a cursor this API returned');
      return value === undefined ? undefined : decodeCursor(value);
    },
  };
}
