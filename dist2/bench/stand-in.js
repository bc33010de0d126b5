/**
 * The stand-in servers of the benchmarks (bare-server.ts, durable-bare-server.ts), each started
 * as its own process and ready once it answers the intake path.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/support/server.js';
import { INTAKE_PATH } from './intake-load.js';
/** Start `program` (a path relative to this file's directory, e.g. `./bare-server.js`) on a free port. */
export async function startStandIn(program, env = {}) {
    const port = await freePort();
    const child = spawn(process.execPath, [fileURLToPath(new URL(program, import.meta.url))], {
        env: { ...process.env, ...env, PORT: String(port) },
        stdio: 'inherit',
    });
    const stop = () => {
        child.kill('SIGTERM');
    };
    const url = `http://127.0.0.1:${port}`;
    for (let tries = 0;; tries += 1) {
        try {
            await fetch(`${url}${INTAKE_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
            break;
        }
        catch (error) {
            if (tries > 200) {
                stop();
                throw error;
            }
            await new Promise((resolve) => setTimeout(resolve, 50));
        }
    }
    if (child.pid === undefined) {
        stop();
        throw new Error(`${program} has no pid`);
    }
    return { url, pid: child.pid, stop };
}
//# sourceMappingURL=stand-in.js.map