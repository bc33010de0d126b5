/**
 * The scheme simulator thread: hosts one SchemeSimulator per simulated scheme, away from the
 * service's event loop, as a real scheme operator runs on machines of its own. The service's side
 * is threaded-simulator.ts; the protocol is simulator-protocol.ts.
 */
import { parentPort } from 'node:worker_threads';
import { SchemeSimulator } from './simulator.js';
if (parentPort === null)
    throw new Error('simulator-thread.js runs as a worker thread of the scheme simulator transport');
const port = parentPort;
const clock = { now: () => Date.now() };
const simulators = new Map();
/** Schemes whose answers the service takes (`start`). */
const started = new Set();
/** Answers handed to the service, waiting for it to say how it took them. */
const handling = new Map();
let nextDelivery = 1;
function send(message) {
    port.postMessage(message);
}
/** Pass the scheme's answers to the service from now on (again after its simulator was replaced). */
function startScheme(scheme) {
    void simulators.get(scheme)?.start(({ document }) => new Promise((resolve, reject) => {
        const delivery = nextDelivery;
        nextDelivery += 1;
        handling.set(delivery, { resolve, reject });
        send({ type: 'inbound', delivery, scheme, document });
    }));
}
port.on('message', (message) => {
    switch (message.type) {
        case 'open': {
            const { scheme } = message.settings;
            void simulators.get(scheme)?.stop();
            simulators.set(scheme, new SchemeSimulator({ ...message.settings, clock }));
            if (started.has(scheme))
                startScheme(scheme);
            return;
        }
        case 'start': {
            started.add(message.scheme);
            startScheme(message.scheme);
            return;
        }
        case 'send': {
            const { call } = message;
            const simulator = simulators.get(message.message.scheme);
            const sent = simulator === undefined
                ? Promise.resolve({ kind: 'failed', retryable: true, error: `the simulator does not serve ${message.message.scheme} now` })
                : simulator.send(message.message);
            void sent.then((outcome) => send({ type: 'sent', call, outcome }));
            return;
        }
        case 'originate': {
            const { call, scheme } = message;
            const simulator = simulators.get(scheme);
            const originated = simulator === undefined ? Promise.resolve({ ok: false, error: `the simulator does not serve ${scheme} now` }) : simulator.originate(message.order);
            void originated.then((result) => send({ type: 'originated', call, result }));
            return;
        }
        case 'inbound_of': {
            send({ type: 'inbound_view', call: message.call, view: simulators.get(message.scheme)?.inboundOf(message.uetr) });
            return;
        }
        case 'handled': {
            const waiting = handling.get(message.delivery);
            handling.delete(message.delivery);
            if (message.ok)
                waiting?.resolve();
            else
                waiting?.reject(new Error('the service refused the answer'));
            return;
        }
        case 'stop': {
            void simulators.get(message.scheme)?.stop();
            simulators.delete(message.scheme);
            started.delete(message.scheme);
            return;
        }
    }
});
//# sourceMappingURL=simulator-thread.js.map