import { inspect } from 'node:util';

/**
 * A value that must never reach a log, an error message or a JSON body by accident
 * (STYLE.md rule 8). It prints as a mask everywhere; `reveal()` is the one deliberate way out,
 * so every use of the real value is greppable.
 */
export class Secret<T = string> {
  readonly #value: T;

  constructor(value: T) {
    this.#value = value;
  }

  reveal(): T {
    return this.#value;
  }

  toString(): string {
    return '[secret]';
  }

  toJSON(): string {
    return '[secret]';
  }

  [inspect.custom](): string {
    return '[secret]';
  }
}
