/** Longest pause between looks at the store when nothing woke the deliveries. */
const IDLE_LOOK_MS = 1_000;
export class Deliveries {
    #options;
    #inFlight = new Map();
    #timer;
    #pumpQueued = false;
    #stopped = false;
    #next = 0;
    constructor(options) {
        this.#options = options;
    }
    /** Look for due documents soon (several wakes in one turn make one look). */
    wake() {
        if (this.#pumpQueued || this.#stopped)
            return;
        this.#pumpQueued = true;
        setImmediate(() => {
            this.#pumpQueued = false;
            this.#pump();
        });
    }
    /** Start nothing new; resolves once the documents being sent are settled. */
    async stop() {
        this.#stopped = true;
        clearTimeout(this.#timer);
        await Promise.allSettled([...this.#inFlight.values()]);
    }
    #pump() {
        if (this.#stopped)
            return;
        clearTimeout(this.#timer);
        const { store, clock, inFlightMax, urls, requestTimeoutMs } = this.#options;
        const now = clock.now();
        const room = inFlightMax - this.#inFlight.size;
        if (room > 0) {
            // Not due again while it is being sent: every URL may take its whole deadline.
            const sendingUntil = now + requestTimeoutMs * urls.length + 1_000;
            const rows = store.transaction(() => {
                const due = store.dueDeliveries(now, room);
                for (const row of due)
                    store.dueAt(row.id, sendingUntil);
                return due;
            });
            for (const row of rows) {
                const sending = this.#deliver(row).finally(() => {
                    this.#inFlight.delete(row.id);
                    this.wake();
                });
                this.#inFlight.set(row.id, sending);
            }
        }
        const next = store.nextDeliveryAt();
        if (next !== undefined && this.#inFlight.size < inFlightMax) {
            this.#timer = setTimeout(() => this.#pump(), Math.min(Math.max(next - clock.now(), 1), IDLE_LOOK_MS));
        }
    }
    async #deliver(row) {
        const { client, urls, store, clock, log } = this.#options;
        const first = this.#next;
        this.#next = (this.#next + 1) % urls.length;
        const failures = [];
        let retryable = false;
        for (let i = 0; i < urls.length; i += 1) {
            const url = urls[(first + i) % urls.length] ?? '';
            const outcome = await client.send(url, { scheme: row.scheme, messageName: row.messageName, idempotencyKey: row.messageId, document: row.document, traceparent: null });
            if (outcome.kind === 'delivered') {
                store.delivered(row.id);
                if (failures.length > 0)
                    log.debug({ messageId: row.messageId, failures }, 'operator simulator: delivered after other instances failed');
                return;
            }
            failures.push(`${url}: ${outcome.error}`);
            retryable ||= outcome.retryable;
        }
        const now = clock.now();
        if (!retryable || now - row.createdAt > this.#options.retryWindowMs) {
            store.delivered(row.id);
            log.error({ scheme: row.scheme, messageName: row.messageName, messageId: row.messageId, attempts: row.attempts + 1, failures }, 'operator simulator: document dropped, no instance of the service took it');
            return;
        }
        const delayMs = Math.min(this.#options.retryDelayMs * 2 ** Math.min(row.attempts, 30), this.#options.retryDelayMaxMs);
        store.retryDelivery(row.id, now + delayMs);
        log.warn({ scheme: row.scheme, messageName: row.messageName, messageId: row.messageId, attempt: row.attempts + 1, retryInMs: delayMs, failures }, 'operator simulator: no instance of the service took the document; trying again');
    }
}
//# sourceMappingURL=deliveries.js.map