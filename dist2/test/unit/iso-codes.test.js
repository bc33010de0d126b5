import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ISO3166_ALPHA2, isCountryCode } from '../../src/lib/iso3166.js';
void describe('ISO 3166-1 alpha-2 table', () => {
    void it('holds the 249 officially assigned codes, each once, as two capitals', () => {
        assert.equal(ISO3166_ALPHA2.length, 249);
        assert.equal(new Set(ISO3166_ALPHA2).size, 249);
        for (const code of ISO3166_ALPHA2)
            assert.match(code, /^[A-Z]{2}$/);
    });
    void it('names every code as a region the runtime knows', () => {
        const names = new Intl.DisplayNames(['en'], { type: 'region' });
        for (const code of ISO3166_ALPHA2)
            assert.notEqual(names.of(code), code, code);
    });
    void it('knows ZA, US, ZM, SS and BQ, and not user-assigned or reserved codes', () => {
        for (const code of ['ZA', 'US', 'ZM', 'SS', 'BQ', 'AX'])
            assert.equal(isCountryCode(code), true, code);
        for (const code of ['XK', 'EU', 'UK', 'XX', 'AN', 'za', 'ZAF', '', 'constructor'])
            assert.equal(isCountryCode(code), false, code);
        assert.equal(isCountryCode(710), false);
    });
});
//# sourceMappingURL=iso-codes.test.js.map