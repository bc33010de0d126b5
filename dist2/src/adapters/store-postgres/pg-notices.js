/**
 * Notices of committed changes between instances sharing one PostgreSQL database: a change made
 * with `notify` sends `NOTIFY regpay_transaction_changed, '<transaction id>'` in its own database
 * transaction (delivered only if it commits), and every instance that has a listener LISTENs on
 * one connection of its own. A dropped connection is re-established with backoff; notices sent
 * meanwhile are lost, which is why waiters also read the row now and then.
 */
import pg from 'pg';
export const CHANGE_CHANNEL = 'regpay_transaction_changed';
const RECONNECT_DELAY_MS = 250;
const RECONNECT_DELAY_MAX_MS = 5_000;
export class ChangeListener {
    #connectionString;
    #onNotice;
    #onError;
    #client;
    #closed = false;
    #failures = 0;
    /** Connections already given up on. */
    #given = new WeakSet();
    #timer;
    /** Settles once the first attempt to listen has succeeded or failed (a failure is retried in the background). */
    firstAttempt;
    constructor(connectionString, onNotice, onError) {
        this.#connectionString = connectionString;
        this.#onNotice = onNotice;
        this.#onError = onError;
        this.firstAttempt = this.#connect();
    }
    async close() {
        this.#closed = true;
        clearTimeout(this.#timer);
        const client = this.#client;
        this.#client = undefined;
        await client?.end().catch(() => undefined);
    }
    async #connect() {
        if (this.#closed)
            return;
        const client = new pg.Client({ connectionString: this.#connectionString, application_name: 'regpay-listen' });
        client.on('notification', (notice) => {
            if (notice.channel === CHANGE_CHANNEL && notice.payload !== undefined)
                this.#onNotice(notice.payload);
        });
        client.on('error', (error) => this.#retry(client, error));
        client.on('end', () => this.#retry(client, new Error('listening connection ended')));
        try {
            await client.connect();
            await client.query(`LISTEN ${CHANGE_CHANNEL}`);
            if (this.#closed) {
                await client.end();
                return;
            }
            this.#client = client;
            this.#failures = 0;
        }
        catch (error) {
            this.#retry(client, error instanceof Error ? error : new Error(String(error)));
        }
    }
    #retry(client, error) {
        // One failure of a connection may be told twice ('error', then 'end'): it is retried once.
        if (this.#closed || this.#given.has(client) || (this.#client !== undefined && this.#client !== client))
            return;
        this.#given.add(client);
        this.#client = undefined;
        client.end().catch(() => undefined);
        this.#onError(error);
        this.#failures += 1;
        clearTimeout(this.#timer);
        const delay = Math.min(RECONNECT_DELAY_MAX_MS, RECONNECT_DELAY_MS * 2 ** Math.min(this.#failures - 1, 5));
        this.#timer = setTimeout(() => void this.#connect(), delay);
        this.#timer.unref();
    }
}
//# sourceMappingURL=pg-notices.js.map