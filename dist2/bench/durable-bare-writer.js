/** durable-bare-server.ts's writer thread: one transaction per batch, one row per body. */
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection } from '../src/adapters/store-sqlite/sqlite-connection.js';
const db = openConnection(workerData.filename, 5_000, 'read-write');
db.exec('CREATE TABLE IF NOT EXISTS bodies (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT');
const insert = db.prepare('INSERT INTO bodies (body) VALUES (?)');
const store = db.transaction((bodies) => {
    for (const body of bodies)
        insert.run(body);
});
parentPort?.on('message', (batch) => {
    store(batch.bodies);
    parentPort?.postMessage(batch.id);
});
//# sourceMappingURL=durable-bare-writer.js.map