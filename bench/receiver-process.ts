import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/support/server.js';

/** Starts bench/receiver.ts (the benchmark's integrator) as its own process; `env` adds to its environment (e.g. RECEIVER_ANSWER_DELAY_MS). */
export async function startBenchReceiver(env: Record<string, string> = {}): Promise<{ url: string; pid: number | undefined; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [fileURLToPath(new URL('./receiver.js', import.meta.url))], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => void child.kill('SIGTERM') };
}
