import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ISO4217_MINOR_UNITS, ISO4217_WITHOUT_MINOR_UNITS } from '../../src/lib/iso4217.js';
import { currencyDecimals, currencyProblem, formatAmount, isActiveCurrency, MINOR_UNITS_MAX, parseAmount, type Money } from '../../src/lib/money.js';

function minor(text: string, currency: string): bigint {
  const result = parseAmount(text, currency);
  assert.ok(result.ok, `${text} ${currency} should parse: ${result.ok ? '' : result.reason}`);
  assert.equal(result.money.currency, currency);
  return result.money.minor;
}

function reason(text: string, currency: string): string {
  const result = parseAmount(text, currency);
  assert.equal(result.ok, false, `${text} ${currency} should be refused`);
  return result.ok ? '' : result.reason;
}

void describe('parseAmount', () => {
  void it('reads two-decimal amounts written with 0, 1 or 2 decimals', () => {
    assert.equal(minor('10', 'ZAR'), 1000n);
    assert.equal(minor('10.0', 'ZAR'), 1000n);
    assert.equal(minor('10.00', 'ZAR'), 1000n);
    assert.equal(minor('0.5', 'ZAR'), 50n);
    assert.equal(minor('0.01', 'ZAR'), 1n);
    assert.equal(minor('0', 'ZAR'), 0n);
    assert.equal(minor('1234567.89', 'USD'), 123456789n);
  });

  void it('refuses 10.000 ZAR: three decimals even though the last is a zero', () => {
    assert.equal(reason('10.000', 'ZAR'), 'must have at most 2 decimals for ZAR');
    assert.equal(reason('10.001', 'ZAR'), 'must have at most 2 decimals for ZAR');
    assert.equal(reason('0.000', 'ZAR'), 'must have at most 2 decimals for ZAR');
  });

  void it('takes a zero-decimal currency with no fraction or with .0 only', () => {
    assert.equal(minor('1500', 'JPY'), 1500n);
    assert.equal(minor('1500.0', 'JPY'), 1500n);
    assert.equal(minor('0.0', 'JPY'), 0n);
    assert.equal(reason('1500.5', 'JPY'), 'must have no decimals for JPY (only .0 is accepted)');
    assert.equal(reason('1500.00', 'JPY'), 'must have no decimals for JPY (only .0 is accepted)');
    assert.equal(reason('0.1', 'KRW'), 'must have no decimals for KRW (only .0 is accepted)');
  });

  void it('takes three- and four-decimal currencies to their full scale', () => {
    assert.equal(minor('1.234', 'KWD'), 1234n);
    assert.equal(minor('1.2', 'BHD'), 1200n);
    assert.equal(reason('1.2345', 'KWD'), 'must have at most 3 decimals for KWD');
    assert.equal(minor('0.0001', 'CLF'), 1n);
    assert.equal(minor('12.3456', 'UYW'), 123456n);
    assert.equal(reason('1.23456', 'CLF'), 'must have at most 4 decimals for CLF');
  });

  void it('reads exponent forms by the decimals they stand for', () => {
    assert.equal(minor('1E2', 'ZAR'), 10000n);
    assert.equal(minor('1.5e1', 'ZAR'), 1500n);
    assert.equal(minor('1.234e1', 'ZAR'), 1234n);
    assert.equal(minor('1e-2', 'ZAR'), 1n);
    assert.equal(minor('125E-2', 'ZAR'), 125n);
    assert.equal(minor('1.5E+3', 'JPY'), 1500n);
    assert.equal(minor('1.50e1', 'JPY'), 15n, '15.0 is one zero decimal');
  });

  void it('refuses exponent forms that stand for too many decimals', () => {
    assert.equal(reason('1e-3', 'ZAR'), 'must have at most 2 decimals for ZAR');
    assert.equal(reason('1.5e-1', 'JPY'), 'must have no decimals for JPY (only .0 is accepted)');
    assert.equal(reason('1e-400', 'ZAR'), 'must have at most 2 decimals for ZAR');
    assert.equal(reason('1e-99999999999999999999', 'ZAR'), 'must have at most 2 decimals for ZAR');
  });

  void it('refuses negative amounts and takes -0 as zero', () => {
    assert.equal(reason('-1', 'ZAR'), 'must not be negative');
    assert.equal(reason('-0.01', 'ZAR'), 'must not be negative');
    assert.equal(minor('-0', 'ZAR'), 0n);
    assert.equal(minor('-0.00', 'ZAR'), 0n);
  });

  void it('refuses amounts beyond a signed 64-bit count of minor units, without building huge numbers', () => {
    assert.equal(minor('92233720368547758.07', 'ZAR'), MINOR_UNITS_MAX);
    assert.equal(reason('92233720368547758.08', 'ZAR'), 'is too large: at most 92233720368547758.07 ZAR');
    assert.match(reason('1e+21', 'ZAR'), /too large/);
    assert.match(reason('1e308', 'USD'), /too large/);
    assert.match(reason('1e99999999999999999999', 'USD'), /too large/);
    assert.equal(minor('0e99999999999999999999', 'USD'), 0n);
    assert.match(reason('9'.repeat(100_000), 'JPY'), /too large/);
  });

  void it('refuses text that is not a JSON number', () => {
    for (const text of ['', ' 1', '1 ', '01', '+1', '.5', '1.', '1e', '0x10', 'NaN', 'Infinity', '1,00', '١']) {
      assert.equal(reason(text, 'ZAR'), 'must be a decimal number', JSON.stringify(text));
    }
  });

  void it('refuses unknown currencies and those without a minor unit, saying which', () => {
    assert.equal(reason('10', 'ABC'), 'ABC is not an active ISO 4217 currency code');
    assert.equal(reason('10', 'zar'), 'zar is not an active ISO 4217 currency code');
    assert.equal(reason('10', 'HRK'), 'HRK is not an active ISO 4217 currency code', 'withdrawn when Croatia took the euro');
    assert.match(reason('10', 'XAU'), /XAU has no minor unit/);
    assert.match(reason('10', 'constructor'), /not an active ISO 4217/);
  });
});

void describe('currencyProblem', () => {
  void it('finds none in a currency with a minor unit, and names what is wrong with any other code', () => {
    for (const code of ['ZAR', 'JPY', 'KWD', 'CLF']) assert.equal(currencyProblem(code), undefined, code);
    assert.equal(currencyProblem('XAU'), 'XAU has no minor unit in ISO 4217 (metal, fund or unit of account) and cannot be used for a payment amount');
    assert.equal(currencyProblem('ZZZ'), 'ZZZ is not an active ISO 4217 currency code');
  });
});

void describe('formatAmount', () => {
  void it('writes exactly the decimals of the currency', () => {
    assert.equal(formatAmount({ currency: 'ZAR', minor: 1000n }), '10.00');
    assert.equal(formatAmount({ currency: 'ZAR', minor: 5n }), '0.05');
    assert.equal(formatAmount({ currency: 'ZAR', minor: 0n }), '0.00');
    assert.equal(formatAmount({ currency: 'JPY', minor: 1500n }), '1500');
    assert.equal(formatAmount({ currency: 'KWD', minor: 1n }), '0.001');
    assert.equal(formatAmount({ currency: 'CLF', minor: 123456n }), '12.3456');
    assert.equal(formatAmount({ currency: 'USD', minor: -250n }), '-2.50');
    assert.equal(formatAmount({ currency: 'ZAR', minor: -5n }), '-0.05', 'the sign before the padding zeros');
    assert.equal(formatAmount({ currency: 'JPY', minor: -7n }), '-7');
  });

  void it('refuses, as a bug, Money in a currency without a minor unit', () => {
    assert.throws(() => formatAmount({ currency: 'XAU', minor: 1n }), /XAU/);
  });
});

void describe('currency table', () => {
  void it('gives the ISO 4217 minor units', () => {
    const expected: Record<string, number> = { ZAR: 2, USD: 2, EUR: 2, JPY: 0, KRW: 0, KWD: 3, BHD: 3, TND: 3, CLF: 4, UYW: 4, UYI: 0, VND: 0, ISK: 0 };
    for (const [code, decimals] of Object.entries(expected)) assert.equal(currencyDecimals(code), decimals, code);
  });

  void it('knows funds codes without a minor unit as active but not as payment currencies', () => {
    for (const code of ['XAU', 'XAG', 'XDR', 'XTS', 'XXX']) {
      assert.equal(isActiveCurrency(code), true, code);
      assert.equal(currencyDecimals(code), undefined, code);
    }
    assert.equal(isActiveCurrency('ZAR'), true);
    assert.equal(isActiveCurrency('ZZZ'), false);
    assert.equal(isActiveCurrency('toString'), false);
    assert.equal(currencyDecimals('hasOwnProperty'), undefined);
  });

  void it('lists each code once, as three capitals, with 0 to 4 decimals', () => {
    const codes = Object.keys(ISO4217_MINOR_UNITS);
    assert.ok(codes.length >= 150, `${codes.length} currencies`);
    for (const code of [...codes, ...ISO4217_WITHOUT_MINOR_UNITS]) assert.match(code, /^[A-Z]{3}$/);
    for (const code of ISO4217_WITHOUT_MINOR_UNITS) assert.equal(Object.hasOwn(ISO4217_MINOR_UNITS, code), false, code);
    for (const decimals of Object.values(ISO4217_MINOR_UNITS)) assert.ok([0, 2, 3, 4].includes(decimals));
  });
});

void describe('money round trip', () => {
  const currencies = Object.keys(ISO4217_MINOR_UNITS);

  void it('formatAmount then parseAmount gives back the same Money, for every active currency', () => {
    fc.assert(
      fc.property(fc.constantFrom(...currencies), fc.bigInt({ min: 0n, max: MINOR_UNITS_MAX }), (currency, amount) => {
        const money: Money = { currency, minor: amount };
        const text = formatAmount(money);
        assert.deepEqual(parseAmount(text, currency), { ok: true, money });
      }),
      { numRuns: 500 },
    );
  });

  void it('parseAmount then formatAmount writes the same amount at full scale, for every active currency', () => {
    fc.assert(
      // At most 10^14 written units: scaled to a 4-decimal currency that is still within the 2^63 - 1 minor-unit cap.
      fc.property(fc.constantFrom(...currencies), fc.bigInt({ min: 0n, max: 10n ** 14n }), fc.nat({ max: 4 }), (currency, units, written) => {
        const decimals = currencyDecimals(currency) ?? 0;
        const shown = Math.min(written, decimals);
        const digits = units.toString().padStart(shown + 1, '0');
        const text = shown === 0 ? digits : `${digits.slice(0, -shown)}.${digits.slice(-shown)}`;
        const result = parseAmount(text, currency);
        assert.ok(result.ok, text);
        const [whole = '', fraction = ''] = text.split('.');
        assert.equal(formatAmount(result.money), decimals === 0 ? whole : `${whole}.${fraction.padEnd(decimals, '0')}`);
      }),
      { numRuns: 500 },
    );
  });

  void it('agrees with every active currency on a few hand-picked texts', () => {
    for (const currency of currencies) {
      const decimals = currencyDecimals(currency) ?? 0;
      assert.equal(minor('1', currency), 10n ** BigInt(decimals), currency);
      assert.equal(minor('1.0', currency), 10n ** BigInt(decimals), currency);
      assert.equal(parseAmount(`1.${'0'.repeat(Math.max(decimals, 1) + 1)}`, currency).ok, false, currency);
    }
  });
});
