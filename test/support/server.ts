import { spawn, type ChildProcess } from 'node:child_process';
import { tracked } from './children.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled entry point, as `npm start` runs it. */
const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
/** How long a started service may take to answer /health/ready. */
const READY_WITHIN_MS = 60_000;

export const DEMO_USER = { username: 'demo', password: 'demo-password-for-tests', clientId: 'demo-client', clientSecret: 'demo-secret-for-tests' };
export const OTHER_USER = { username: 'other', password: 'other-password-for-tests', clientId: 'other-client', clientSecret: 'other-secret-for-tests' };

export function basicAuth(user: { username: string; password: string } = DEMO_USER): string {
  return `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;
}

export interface TestConfigOptions {
  database: string;
  auth?: 'basic' | 'oauth2';
  /** Merged into the top level of the config. */
  extra?: Record<string, unknown>;
  /** Merged into every integrator. */
  integratorExtra?: Record<string, unknown>;
}

/** A configuration like CONTRACT §8's, with two integrators (demo-bank and other-bank) on loopback. */
export function testConfigObject(options: TestConfigOptions): Record<string, unknown> {
  const integrator = (id: string, bicfi: string, memberId: string, user: typeof DEMO_USER) => ({
    id,
    institution: { bicfi, memberId },
    allowlist: ['127.0.0.1/32', '::1/128'],
    credentials: user,
    partnerApiUrl: 'http://127.0.0.1:9/partner-api/v1',
    eventsApiUrl: 'http://127.0.0.1:9/events-api/v1',
    events: true,
    identifierDetermination: 'sync',
    schemes: ['ZA_RPP', 'ZA_RTC', 'ZA_EFT', 'CBPR_PLUS', 'TCIB'],
    ...options.integratorExtra,
  });
  return {
    server: { host: '127.0.0.1', port: 0 },
    database: options.database,
    auth: { mode: options.auth ?? 'basic' },
    integrators: [integrator('demo-bank', 'DEMOZAJJ', '210001', DEMO_USER), integrator('other-bank', 'OTHRZAJJ', '250655', OTHER_USER)],
    schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: 10000 }, ZA_RTC: { connector: 'simulator', timeBudgetMs: 60000 } },
    // The credit-transfer fixtures pay a proxy without determining it first; the identifier-determination tests switch the requirement on.
    proxyPayments: { determinationRequired: false },
    ...options.extra,
  };
}

/** Writes testConfigObject() to a temporary file and returns its path. */
export function writeTestConfig(options: TestConfigOptions): string {
  const dir = mkdtempSync(join(tmpdir(), 'regpay-e2e-'));
  const path = join(dir, 'regpay.json');
  writeFileSync(path, JSON.stringify(testConfigObject(options), null, 2));
  return path;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote, for diagnosing a failed test. */
  output(): string;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** kill -9: no chance to flush or close anything. */
  kill9(): Promise<void>;
}

/** Starts the real service as a separate process and waits until /health/ready answers 200. */
export async function startServer(options: {
  configPath?: string;
  env?: Record<string, string>;
  cwd?: string;
  port?: number;
  nodeArgs?: readonly string[];
  /** Another program answering /health/ready (a benchmark's stand-in for the service); the service by default. */
  main?: string;
}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  // As the README runs the service (its young-generation size).
  const args = ['--enable-source-maps', '--max-semi-space-size=64', ...(options.nodeArgs ?? []), options.main ?? MAIN, ...(options.configPath === undefined ? [] : ['--config', options.configPath])];
  const child = tracked(spawn(process.execPath, args, {
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, PORT: String(port), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;

  // Generous: on a shared 2-core machine under a full suite a start has taken over 30 s.
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within ${READY_WITHIN_MS / 1000} s:\n${output}`);
    }
    try {
      const response = await fetch(`${url}/health/ready`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill9: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * The zero-config demo (no configuration, started in `cwd`, best a fresh empty directory), once
 * its banner printed the `export REGPAY_URL=…` line, with that line and the REGPAY_* variables it sets.
 */
export async function startDemo(cwd: string, env: Record<string, string> = {}): Promise<{ server: RunningServer; exportLine: string; variables: Record<string, string> }> {
  const server = await startServer({ cwd, env });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const exportLine = server
      .output()
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line.startsWith('export REGPAY_URL='));
    if (exportLine !== undefined) {
      const variables = Object.fromEntries([...exportLine.matchAll(/(REGPAY_[A-Z_]+)='?([^' ]+)'?/g)].map((match) => [match[1] ?? '', match[2] ?? '']));
      return { server, exportLine, variables };
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`the demo printed no export line:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** An access token of the demo integrator, by the password grant with the credentials of the demo's export line. */
export async function demoAccessToken(server: RunningServer, variables: Record<string, string>): Promise<string> {
  const response = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: variables['REGPAY_USERNAME'] ?? '',
      password: variables['REGPAY_PASSWORD'] ?? '',
      client_id: variables['REGPAY_CLIENT_ID'] ?? '',
      client_secret: variables['REGPAY_CLIENT_SECRET'] ?? '',
    }),
  });
  if (response.status !== 200) throw new Error(`the demo refused its own credentials: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
