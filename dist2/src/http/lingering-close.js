import fp from 'fastify-plugin';
/**
 * Lingering close (nginx's `lingering_close`) for a request answered before its body was read to
 * the end: a 413 for a declared length over the limit (refused before a byte of the body is read),
 * a 413 found while reading a chunked body, a 401 or 415 that needs no body, ...
 *
 * Closing such a connection at once resets it, because the kernel answers a close with unread
 * data by a reset, and a client still sending its body often loses the answer to it (fetch fails
 * with EPIPE before it reads the 413). So the answer says `Connection: close`, the write side is
 * shut after it (the client sees the end of the stream), and the rest of the request is read and
 * discarded until the client closes its side or a bound is reached: `server.lingerMs` after the
 * answer, or `server.lingerBytesMax` discarded. Then the connection is destroyed. A body declared
 * longer than `server.lingerBytesMax` is not read at all: its connection is closed after the
 * answer, as before. No further request on a lingering connection is processed, since its
 * answer could never be written.
 */
export class LingeringClose {
    #lingerMs;
    #lingerBytesMax;
    /** Connections whose answer said `Connection: close` before the request was read. */
    #refused = new WeakSet();
    /** Connections being read and discarded, with the timer that ends them. */
    #lingering = new Map();
    #closed = false;
    constructor(server) {
        this.#lingerMs = server.lingerMs;
        this.#lingerBytesMax = server.lingerBytesMax;
    }
    /** Whether this connection was answered before its request was read (then it takes no further request). */
    refused(socket) {
        return this.#refused.has(socket);
    }
    /** The answer to `request` is about to go out while its body is still coming. */
    answerBeforeBody(request, reply) {
        void reply.header('connection', 'close');
        const { socket } = request;
        this.#refused.add(socket);
        const declared = Number(request.headers['content-length']);
        if (Number.isSafeInteger(declared) && declared > this.#lingerBytesMax)
            return;
        // Node ends a `Connection: close` answer with socket.destroySoon(): shut the write side, then
        // destroy once it is flushed, with the rest of the body unread. Lingering keeps reading instead.
        socket.destroySoon = () => this.#linger(socket, request);
    }
    #linger(socket, request) {
        if (this.#closed) {
            socket.destroy();
            return;
        }
        socket.end();
        // Node already reads the rest of the request and drops it (or Fastify's reader stopped
        // keeping it); this only counts it.
        let discarded = 0;
        request.on('data', (chunk) => {
            discarded += chunk.length;
            if (discarded > this.#lingerBytesMax)
                socket.destroy();
        });
        const timer = setTimeout(() => socket.destroy(), this.#lingerMs);
        this.#lingering.set(socket, timer);
        socket.once('close', () => {
            clearTimeout(timer);
            this.#lingering.delete(socket);
        });
    }
    /** Destroy every lingering connection and linger no more (app close). */
    close() {
        this.#closed = true;
        for (const [socket, timer] of this.#lingering) {
            clearTimeout(timer);
            socket.destroy();
        }
        this.#lingering.clear();
    }
}
export const lingeringClosePlugin = fp((app, options) => {
    const { lingering } = options;
    app.addHook('onSend', (request, reply, payload, done) => {
        // An injected request (tests) has no `complete` flag: nothing is on the wire after it.
        if (request.raw.complete === false)
            lingering.answerBeforeBody(request.raw, reply);
        done(null, payload);
    });
    app.addHook('preClose', (done) => {
        lingering.close();
        done();
    });
}, { name: 'regpay-lingering-close', fastify: '5.x' });
//# sourceMappingURL=lingering-close.js.map