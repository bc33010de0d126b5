/**
 * The string formats the messages use, written out rather than borrowed so that the accepted
 * forms are exactly those of RFC 3339 (ajv-formats also takes offsets without a colon, and a
 * "urn:uuid:" prefix on UUIDs). Each check has a shape part and a calendar part so an error can
 * say which one failed.
 */

/** RFC 3339 date-time: fractions optional, `Z` or a `±hh:mm` offset; `T`, `t` or a space between date and time (RFC 3339 §5.6 note). */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return day <= days;
}

export function hasDateTimeShape(text: string): boolean {
  return DATE_TIME.test(text);
}

export function hasDateShape(text: string): boolean {
  return DATE.test(text);
}

/** A real instant in RFC 3339 form: the date exists, the time of day exists, a leap second only at 23:59:60 UTC. */
export function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (match === null) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetSign = match[7] === '-' ? -1 : 1;
  const offsetHours = Number(match[8] ?? 0);
  const offsetMinutes = Number(match[9] ?? 0);
  if (!isRealDate(year, month, day) || offsetHours > 23 || offsetMinutes > 59) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (second < 60) return true;
  const utcMinutes = (((hour * 60 + minute - offsetSign * (offsetHours * 60 + offsetMinutes)) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}

/** A real calendar date in RFC 3339 full-date form (YYYY-MM-DD). */
export function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  return isRealDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

const UUID_V4 = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$/;

/** A version-4 UUID of the RFC 9562 variant: ISO 20022's UUIDv4Identifier, the form SWIFT and every ISO scheme take a UETR in. */
export function isUuidV4(text: string): boolean {
  return UUID_V4.test(text);
}
