import assert from 'node:assert/strict';
/** Calls `probe` every 100 ms until it returns a value, and returns it; fails naming `what` after `timeoutMs`. */
export async function probeUntil(what, probe, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const value = await probe();
        if (value !== undefined)
            return value;
        if (Date.now() > deadline)
            assert.fail(`${what}: not within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
}
//# sourceMappingURL=probe.js.map