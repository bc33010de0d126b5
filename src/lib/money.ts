import { assert } from './assert.js';
import { ISO4217_MINOR_UNITS, ISO4217_WITHOUT_MINOR_UNITS } from './iso4217.js';
import { counted } from './text.js';

/**
 * Money is never a float (STYLE.md rule 4): an amount is a whole number of minor units of its
 * currency, with the scale taken from ISO 4217. It is parsed from the JSON number's literal text
 * at the edge and formatted back only when a message is written.
 */
export interface Money {
  readonly currency: string;
  readonly minor: bigint;
}

export type ParseAmountResult = { readonly ok: true; readonly money: Money } | { readonly ok: false; readonly reason: string };

/** The largest amount carried, in minor units: a signed 64-bit integer, the column type of both stores. */
export const MINOR_UNITS_MAX = 2n ** 63n - 1n;
const MINOR_UNITS_MAX_DIGITS = MINOR_UNITS_MAX.toString().length;

// Maps and Sets, not object lookups, so names like "constructor" can never pass for a currency.
const DECIMALS: ReadonlyMap<string, number> = new Map(Object.entries(ISO4217_MINOR_UNITS));
const WITHOUT_MINOR_UNITS: ReadonlySet<string> = new Set(ISO4217_WITHOUT_MINOR_UNITS);

/** JSON number grammar (RFC 8259 §6), split into sign, integer digits, fraction digits and exponent. */
const JSON_NUMBER = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Decimals of a currency usable for payments; undefined for unknown codes and for codes without a minor unit (XAU, XDR ...). */
export function currencyDecimals(code: string): number | undefined {
  return DECIMALS.get(code);
}

/** Whether the code is in ISO 4217 List One, including the codes without a minor unit. */
export function isActiveCurrency(code: string): boolean {
  return DECIMALS.has(code) || WITHOUT_MINOR_UNITS.has(code);
}

/**
 * Why a currency code cannot carry a payment amount, or undefined when it can. The wording is
 * about the code itself, for an error on the `currency` field.
 */
export function currencyProblem(code: string): string | undefined {
  if (DECIMALS.has(code)) return undefined;
  if (WITHOUT_MINOR_UNITS.has(code)) return `${code} has no minor unit in ISO 4217 (metal, fund or unit of account) and cannot be used for a payment amount`;
  return `${code} is not an active ISO 4217 currency code`;
}

/**
 * An amount from the literal text of a JSON number, e.g. "10.00", "0.5", "1.5e1". The number of
 * decimals is the number written (after applying the exponent), trailing zeros included: the spec
 * lets a two-decimal currency take 10.0 and 10.00 but not 10.000, and a zero-decimal currency
 * take no fraction except ".0". Negative amounts are refused; "-0" is zero.
 */
export function parseAmount(text: string, currency: string): ParseAmountResult {
  const decimals = DECIMALS.get(currency);
  if (decimals === undefined) return { ok: false, reason: currencyProblem(currency) ?? `${currency} cannot be used` };
  const match = JSON_NUMBER.exec(text);
  if (match === null) return { ok: false, reason: 'must be a decimal number' };
  const [, sign = '', integerDigits = '', fractionDigits = '', exponentText] = match;
  const written = integerDigits + fractionDigits;
  const significant = written.replace(/^0+/, '');
  if (sign === '-' && significant !== '') return { ok: false, reason: 'must not be negative' };

  // Decimals as written in plain notation: 1.50e1 is 15.0 (one decimal), 1e-2 is 0.01 (two).
  // A huge exponent becomes an infinite scale, which the checks below refuse before any arithmetic.
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  const scale = fractionDigits.length - exponent;
  const tolerated = decimals === 0 ? scale <= 0 || (scale === 1 && written.endsWith('0')) : scale <= decimals;
  if (!tolerated) return { ok: false, reason: decimalsReason(currency, decimals) };
  if (significant === '') return { ok: true, money: { currency, minor: 0n } };

  const shift = decimals - scale;
  if (significant.length + shift > MINOR_UNITS_MAX_DIGITS) return { ok: false, reason: tooLargeReason(currency) };
  // shift is -1 only for a zero-decimal currency written with ".0": drop that zero.
  const minor = shift >= 0 ? BigInt(significant) * 10n ** BigInt(shift) : BigInt(significant.slice(0, shift));
  if (minor > MINOR_UNITS_MAX) return { ok: false, reason: tooLargeReason(currency) };
  return { ok: true, money: { currency, minor } };
}

/** The amount as a decimal string with exactly the currency's decimals, e.g. "10.50" for ZAR, "1050" for JPY. */
export function formatAmount(money: Money): string {
  const decimals = DECIMALS.get(money.currency);
  assert(decimals !== undefined, `Money in ${money.currency}, which has no ISO 4217 minor unit`);
  const negative = money.minor < 0n;
  const digits = (negative ? -money.minor : money.minor).toString();
  const sign = negative ? '-' : '';
  if (decimals === 0) return sign + digits;
  const padded = digits.padStart(decimals + 1, '0');
  return `${sign}${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`;
}

function decimalsReason(currency: string, decimals: number): string {
  if (decimals === 0) return `must have no decimals for ${currency} (only .0 is accepted)`;
  return `must have at most ${counted(decimals, 'decimal')} for ${currency}`;
}

function tooLargeReason(currency: string): string {
  return `is too large: at most ${formatAmount({ currency, minor: MINOR_UNITS_MAX })} ${currency}`;
}
