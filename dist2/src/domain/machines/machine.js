import { AssertionError } from '../../lib/assert.js';
export function isStateOf(machine, value) {
    return Object.prototype.hasOwnProperty.call(machine.transitions, value);
}
/** An illegal transition is a bug: it crashes the unit of work and is never committed. */
export function assertLegalTransition(machine, from, to) {
    if (!isStateOf(machine, from) || !isStateOf(machine, to) || !machine.transitions[from].includes(to)) {
        throw new AssertionError(`illegal ${machine.name} transition ${from} -> ${to}`);
    }
}
/** Scheme restriction: reason descriptions may be cut at 35 characters. */
export function truncateReason(text) {
    return text.length <= 35 ? text : text.slice(0, 35);
}
//# sourceMappingURL=machine.js.map