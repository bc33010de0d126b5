/**
 * Assertions are for bugs, never for the world (STYLE.md rule 2): a failed assertion means the
 * code broke an invariant it owns, so the unit of work is abandoned rather than continued on a
 * state nobody designed. Bad input, declines and timeouts are outcomes, not assertion failures.
 */
export class AssertionError extends Error {
    name = 'AssertionError';
}
export function assert(condition, message) {
    if (!condition)
        throw new AssertionError(message);
}
/** Exhaustiveness check for discriminated unions: the compiler proves this is unreachable. */
export function unreachable(value, what = 'value') {
    throw new AssertionError(`unexpected ${what}: ${JSON.stringify(value)}`);
}
//# sourceMappingURL=assert.js.map