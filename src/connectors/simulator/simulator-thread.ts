/**
 * The scheme simulator thread: hosts one SchemeSimulator per simulated scheme, away from the
 * service's event loop, as a real scheme operator runs on machines of its own. The service's side
 * is threaded-simulator.ts; the protocol is simulator-protocol.ts.
 */
import { parentPort } from 'node:worker_threads';
import type { SchemeName } from '../../domain/schemes.js';
import type { FromSimulator, ToSimulator } from './simulator-protocol.js';
import { SchemeSimulator } from './simulator.js';

if (parentPort === null) throw new Error('simulator-thread.js runs as a worker thread of the scheme simulator transport');
const port = parentPort;
const clock = { now: () => Date.now() };
const simulators = new Map<SchemeName, SchemeSimulator>();
/** Answers handed to the service, waiting for it to say how it took them. */
const handling = new Map<number, { resolve(): void; reject(error: Error): void }>();
let nextDelivery = 1;

function send(message: FromSimulator): void {
  port.postMessage(message);
}

port.on('message', (message: ToSimulator) => {
  switch (message.type) {
    case 'open': {
      void simulators.get(message.settings.scheme)?.stop();
      simulators.set(message.settings.scheme, new SchemeSimulator({ ...message.settings, clock }));
      return;
    }
    case 'start': {
      const { scheme } = message;
      void simulators.get(scheme)?.start(
        ({ document }) =>
          new Promise<void>((resolve, reject) => {
            const delivery = nextDelivery;
            nextDelivery += 1;
            handling.set(delivery, { resolve, reject });
            send({ type: 'inbound', delivery, scheme, document });
          }),
      );
      return;
    }
    case 'send': {
      const { call } = message;
      const simulator = simulators.get(message.message.scheme);
      const sent =
        simulator === undefined
          ? Promise.resolve({ kind: 'failed', retryable: true, error: `the simulator does not serve ${message.message.scheme} now` } as const)
          : simulator.send(message.message);
      void sent.then((outcome) => send({ type: 'sent', call, outcome }));
      return;
    }
    case 'handled': {
      const waiting = handling.get(message.delivery);
      handling.delete(message.delivery);
      if (message.ok) waiting?.resolve();
      else waiting?.reject(new Error('the service refused the answer'));
      return;
    }
    case 'stop': {
      void simulators.get(message.scheme)?.stop();
      simulators.delete(message.scheme);
      return;
    }
  }
});
