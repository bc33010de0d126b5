import { BoundedMap } from '../../lib/bounded-map.js';
class MemoryTable {
    #records;
    #byUetr;
    constructor(entriesMax) {
        this.#records = new BoundedMap(entriesMax);
        this.#byUetr = new BoundedMap(entriesMax);
    }
    get size() {
        return this.#records.size;
    }
    get(id) {
        return this.#records.get(id);
    }
    put(id, record, uetr) {
        this.#records.set(id, record);
        if (uetr !== undefined)
            this.#byUetr.set(uetr.toLowerCase(), id);
    }
    idOf(uetr) {
        return this.#byUetr.get(uetr.toLowerCase());
    }
}
/** State in memory: the `entriesMax` most recent records of each kind; forgotten with the process. */
export function memoryOperatorState(entriesMax) {
    let sequence = 0;
    return {
        transfers: new MemoryTable(entriesMax),
        failedOnce: new MemoryTable(entriesMax),
        lookups: new MemoryTable(entriesMax),
        requests: new MemoryTable(entriesMax),
        cancellations: new MemoryTable(entriesMax),
        inbound: new MemoryTable(entriesMax),
        inboundMessages: new MemoryTable(entriesMax),
        nextSequence: () => (sequence += 1),
    };
}
//# sourceMappingURL=operator-state.js.map