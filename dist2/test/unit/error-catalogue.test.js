import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ERROR_CATALOGUE } from '../../src/domain/errors.js';
describe('error catalogue', () => {
    it('is documented in docs/errors.md with the same codes, statuses and messages', () => {
        const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
        const rows = [...doc.matchAll(/^\| ([A-Z_]+) \| (\d{3}) \| (.+?) \|$/gm)].map((m) => [m[1], Number(m[2]), m[3]]);
        const code = Object.entries(ERROR_CATALOGUE).map(([name, entry]) => [name, entry.status, entry.message]);
        assert.deepEqual(rows, code);
    });
});
//# sourceMappingURL=error-catalogue.test.js.map