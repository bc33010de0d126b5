import { inspect } from 'node:util';
/**
 * A value that must never reach a log, an error message or a JSON body by accident
 * (STYLE.md rule 8). It prints as a mask everywhere; `reveal()` is the one deliberate way out,
 * so every use of the real value is greppable.
 */
export class Secret {
    #value;
    constructor(value) {
        this.#value = value;
    }
    reveal() {
        return this.#value;
    }
    toString() {
        return '[secret]';
    }
    toJSON() {
        return '[secret]';
    }
    [inspect.custom]() {
        return '[secret]';
    }
}
//# sourceMappingURL=secret.js.map