import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { uuid7 } from '../../src/lib/uuid7.js';
const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
void describe('UUID version 7', () => {
    void it('has the version 7 and RFC 9562 variant bits and carries its millisecond in the first 48 bits', () => {
        const at = Date.UTC(2026, 10, 22, 2, 30, 0, 123);
        const id = uuid7(at);
        assert.match(id, UUID7);
        assert.equal(parseInt(id.replaceAll('-', '').slice(0, 12), 16), at);
    });
    void it('sorts ids of later milliseconds after earlier ones, as text', () => {
        const ids = [1, 2, 1000, 2 ** 40].map((ms) => uuid7(1_700_000_000_000 + ms));
        assert.deepEqual([...ids].sort(), ids);
    });
    void it('never repeats, across many refills of its random pool within one millisecond', () => {
        const ids = Array.from({ length: 20_000 }, () => uuid7(1_700_000_000_000));
        assert.equal(new Set(ids).size, ids.length);
        for (const id of ids.slice(0, 100))
            assert.match(id, UUID7);
    });
});
//# sourceMappingURL=uuid7.test.js.map