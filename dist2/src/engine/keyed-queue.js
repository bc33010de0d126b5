/**
 * Runs tasks one at a time per key, in arrival order, while different keys run concurrently.
 * The engine uses it so that two inputs for one transaction (a timer and a scheme answer, say)
 * are never decided on the same version at once inside this instance.
 */
export class KeyedSerialQueue {
    #tails = new Map();
    run(key, task) {
        const previous = this.#tails.get(key) ?? Promise.resolve();
        const result = previous.then(task, task);
        const tail = result.catch(() => undefined);
        this.#tails.set(key, tail);
        void tail.then(() => {
            if (this.#tails.get(key) === tail)
                this.#tails.delete(key);
        });
        return result;
    }
    /** Keys with work queued or running (bounded by the callers' own bounds). */
    get size() {
        return this.#tails.size;
    }
}
//# sourceMappingURL=keyed-queue.js.map