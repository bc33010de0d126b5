import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Direction } from '../../src/domain/events.js';

/**
 * docs/api.md's "Event payloads" tables, read as data: per direction, each event type and the
 * payload schemas it may carry. test/unit/event-payloads.test.ts holds the service to them over
 * random inputs; end-to-end tests check the events a real flow posts against them.
 */
export type Documented = ReadonlyMap<Direction, ReadonlyMap<string, ReadonlySet<string>>>;

const SCHEMA_TOKEN = /^([A-Z][a-z][A-Za-z]*|[a-z]{4}\.\d{3})$/;

/** The schema names of a table cell: its code spans that look like one (`CreditTransfer`, `pacs.002`; not `AB06` or `APPROVED`). */
export function schemasIn(cell: string): Set<string> {
  return new Set([...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '').filter((token) => SCHEMA_TOKEN.test(token)));
}

export function cells(line: string): string[] {
  return line.split('|').slice(1, -1).map((cell) => cell.trim());
}

/** api.md: the two tables of "### Event payloads", by direction. */
export function apiTables(path = 'docs/api.md'): Documented {
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('### Event payloads');
  assert.ok(start >= 0, 'api.md has its Event payloads section');
  const section = text.slice(start, text.indexOf('\n## ', start));
  const tables = new Map<Direction, Map<string, Set<string>>>();
  let direction: Direction | undefined;
  for (const line of section.split('\n')) {
    if (line.startsWith('Sent by you (`OUTBOUND`)')) direction = 'OUTBOUND';
    if (line.startsWith('Brought to you by the scheme (`INBOUND`')) direction = 'INBOUND';
    const [type, payload] = cells(line);
    const name = /^`([A-Z_]+)`$/.exec(type ?? '')?.[1];
    if (direction === undefined || name === undefined || payload === undefined) continue;
    const table = tables.get(direction) ?? new Map<string, Set<string>>();
    assert.ok(!table.has(name), `${direction} ${name} is listed once`);
    table.set(name, schemasIn(payload));
    tables.set(direction, table);
  }
  return tables;
}

/** A payload's schema as the table names it: a scheme message without its version. */
export function documentedName(schema: string): string {
  return /^[a-z]{4}\.\d{3}\./.test(schema) ? schema.slice(0, 8) : schema;
}

/** An event as posted carries a payload whose schema api.md lists for its direction and type (current type names). */
export function assertDocumentedPayload(event: { readonly type: string; readonly tranInfo: { readonly direction: Direction }; readonly payload: { readonly schema?: unknown } }, documented: Documented = apiTables()): void {
  const allowed = documented.get(event.tranInfo.direction)?.get(event.type);
  const schema = typeof event.payload.schema === 'string' ? documentedName(event.payload.schema) : '(none)';
  assert.ok(allowed?.has(schema), `${event.tranInfo.direction} ${event.type} carries ${schema}; docs/api.md lists ${[...(allowed ?? [])].join(', ')}`);
}
