/**
 * A Map with a size cap: inserting beyond the cap evicts the oldest entries (insertion order,
 * refreshed on set). Connectors, the simulator and the engine keep short-lived data in it, so
 * memory stays bounded however long the process runs (STYLE.md rule 3).
 */
export class BoundedMap {
    entriesMax;
    #entries = new Map();
    constructor(entriesMax) {
        this.entriesMax = entriesMax;
        if (!Number.isInteger(entriesMax) || entriesMax < 1)
            throw new RangeError(`entriesMax must be a positive integer, got ${entriesMax}`);
    }
    get size() {
        return this.#entries.size;
    }
    get(key) {
        return this.#entries.get(key);
    }
    has(key) {
        return this.#entries.has(key);
    }
    set(key, value) {
        this.#entries.delete(key);
        this.#entries.set(key, value);
        while (this.#entries.size > this.entriesMax) {
            const oldest = this.#entries.keys().next();
            if (oldest.done === true)
                break;
            this.#entries.delete(oldest.value);
        }
    }
    delete(key) {
        return this.#entries.delete(key);
    }
    clear() {
        this.#entries.clear();
    }
}
//# sourceMappingURL=bounded-map.js.map