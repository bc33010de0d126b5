import type { Amount } from './types';

/** Times as the API gives them (RFC 3339, UTC), shown as `2025-01-15 12:00:00.123`: every time in the console is UTC. */
export function formatTime(iso: string | null): string {
  if (iso === null) return '—';
  return iso.replace('T', ' ').replace(/Z$/, '');
}

/** A time in running text, where no column heading says UTC: `2025-01-15 12:00:00.123 UTC`. */
export function formatTimeUtc(iso: string): string {
  return `${formatTime(iso)} UTC`;
}

/** A clock time of this browser's Date, in UTC like every other time: `12:00:03 UTC`. */
export function formatClockUtc(date: Date): string {
  return `${date.toISOString().slice(11, 19)} UTC`;
}

/** A duration as a person reads it: `850 ms`, `12 s`, `5 min 3 s`, `2 h 4 min`, `3 d 1 h`. */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1_000) return `${Math.round(abs)} ms`;
  const seconds = Math.floor(abs / 1_000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** The decimal text of the API with its currency; never parsed into a number. */
export function formatAmount(amount: Amount | null): string {
  return amount === null ? '—' : `${amount.value} ${amount.currency}`;
}

export function formatJson(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** An RFC 3339 time of a `datetime-local` field's value, read as UTC; undefined when empty. */
export function utcFromInput(value: string): string | undefined {
  if (value === '') return undefined;
  return `${value.length === 16 ? `${value}:00` : value}Z`;
}

/** The `datetime-local` value of an RFC 3339 UTC time (the inverse of utcFromInput). */
export function inputFromUtc(value: string | null): string {
  return value === null ? '' : value.replace(/(\.\d+)?Z$/, '');
}

/**
 * An XML document indented one element per line, for reading. It only re-spaces the text between
 * tags; the result is shown as text, so whatever the document holds is never markup in the page.
 * A document it cannot follow (unbalanced tags) is returned as it came.
 */
export function prettyXml(xml: string): string {
  const tokens = xml
    .replace(/>\s+</g, '><')
    .split(/(<[^>]+>)/)
    .filter((token) => token.trim() !== '');
  const lines: string[] = [];
  let depth = 0;
  const pad = (): string => '  '.repeat(depth);
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] ?? '';
    const isTag = token.startsWith('<');
    const opens = isTag && !token.startsWith('</') && !token.startsWith('<?') && !token.startsWith('<!') && !token.endsWith('/>');
    const [text, close] = [tokens[index + 1], tokens[index + 2]];
    if (opens && text !== undefined && !text.startsWith('<') && close?.startsWith('</') === true) {
      lines.push(`${pad()}${token}${text}${close}`);
      index += 2;
    } else if (opens) {
      lines.push(`${pad()}${token}`);
      depth++;
    } else if (isTag && token.startsWith('</')) {
      depth--;
      if (depth < 0) return xml;
      lines.push(`${pad()}${token}`);
    } else {
      lines.push(`${pad()}${isTag ? token : token.trim()}`);
    }
  }
  return depth === 0 ? lines.join('\n') : xml;
}

/** A kind as a person says it ("inbound credit", "lookup"); a kind the console does not know, in lower case. */
export function kindLabel(kind: string): string {
  const known: Readonly<Record<string, string>> = {
    CREDIT_TRANSFER: 'credit transfer',
    IDENTIFIER_DETERMINATION: 'lookup',
    REQUEST_TO_PAY: 'request-to-pay',
    INBOUND_CREDIT_TRANSFER: 'inbound credit',
    INBOUND_IDENTIFIER_DETERMINATION: 'inbound lookup',
    INBOUND_REQUEST_TO_PAY: 'inbound request-to-pay',
  };
  return known[kind] ?? kind.toLowerCase().replaceAll('_', ' ');
}

/**
 * What entering a state of an inbound transaction means, by the state's last words (the inbound
 * kinds share them: PAYMENT_AUTH_REQUEST_PENDING, IDENTIFIER_DETERMINATION_REQUEST_PENDING, …):
 * the request comes from the scheme, the service calls the integrator, and answers the scheme.
 * Undefined for a state it does not know.
 */
export function inboundStateMeaning(state: string): string | undefined {
  return INBOUND_MEANINGS.find(([ending]) => state.endsWith(`_${ending}`))?.[1];
}

const INBOUND_MEANINGS: readonly (readonly [string, string])[] = [
  ['COMPLETION_RECEIVED', "the scheme's final word received"],
  ['COMPLETION_PENDING', 'completion callback to the integrator due'],
  ['COMPLETION_DELIVERED', 'completion callback delivered to the integrator'],
  ['COMPLETION_DELIVERY_FAILURE', 'completion callback not delivered yet (see its attempts below)'],
  ['REQUEST_RECEIVED', "the scheme's message received"],
  ['REQUEST_ACCEPTED', "the scheme's message passes the rules"],
  ['REQUEST_PENDING', 'call to the integrator due'],
  ['REQUEST_DELIVERED', 'call to the integrator made'],
  ['REQUEST_DELIVERY_FAILURE', 'call to the integrator failed'],
  ['TIMEOUT', 'no valid answer from the integrator in time'],
  ['RESPONSE_RECEIVED', "the integrator's answer received"],
  ['RESPONSE_REJECTED', "the integrator's answer breaks the rules"],
  ['RESPONSE_ACCEPTED', 'answer to the scheme decided'],
  ['RESPONSE_PENDING', 'answer to the scheme due'],
  ['RESPONSE_DELIVERED', 'answer sent to the scheme'],
  ['RESPONSE_DELIVERY_FAILURE', 'answer to the scheme not taken yet: sent again'],
];
