// Starts the real ADK API server (`adk api_server` from @google/adk-devtools) on 127.0.0.1
// with the scripted agents of test/adk/agents, for the tests that talk to an ADK server.

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';

const AGENTS_DIR = fileURLToPath(new URL('./agents', import.meta.url));
const CLI = fileURLToPath(
  new URL('../../node_modules/@google/adk-devtools/dist/esm/cli_entrypoint.js', import.meta.url),
);

export interface AdkServer {
  /** Base URL, without a trailing slash, e.g. http://127.0.0.1:40123 */
  readonly url: string;
  /** Everything the server printed, for a failing test's message. */
  output(): string;
  /** Asks it to exit (SIGTERM), and kills it if it has not within 5 s. */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL), as a crash or a pulled plug would: no graceful close. */
  kill(): Promise<void>;
}

export interface AdkServerOptions {
  /** Origins allowed by CORS (`--allow_origins`), e.g. the app's own origin. */
  allowOrigins?: string[];
  /** `--session_service_uri`, e.g. postgresql://…; in-memory when absent. */
  sessionServiceUri?: string;
  port?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startAdkServer(options: AdkServerOptions = {}): Promise<AdkServer> {
  const port = options.port ?? (await freePort());
  const args = [CLI, 'api_server', AGENTS_DIR, '--compile', 'false', '--bundle', 'false'];
  args.push('-h', '127.0.0.1', '-p', String(port), '--log_level', 'warn');
  if (options.allowOrigins?.length) args.push('--allow_origins', options.allowOrigins.join(','));
  if (options.sessionServiceUri) args.push('--session_service_uri', options.sessionServiceUri);
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: '' },
  });
  let printed = '';
  child.stdout?.on('data', (chunk) => (printed += chunk));
  child.stderr?.on('data', (chunk) => (printed += chunk));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`adk api_server exited:\n${printed}`);
    try {
      const response = await fetch(`${url}/list-apps`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`adk api_server did not answer on ${url} within 60 s:\n${printed}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, output: () => printed, stop, kill };
}

/**
 * One ADK API server for a test file: started before its tests, stopped after them. The getter
 * gives the running server.
 */
export function adkServerForSuite(options: AdkServerOptions = {}): () => AdkServer {
  let server: AdkServer | undefined;
  beforeAll(async () => {
    server = await startAdkServer(options);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('The ADK server has not started');
    return server;
  };
}
