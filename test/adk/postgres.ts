// A throwaway PostgreSQL server for tests: Debian's binaries (package `postgresql`, which .ci/run
// installs), a new cluster in a temporary folder, listening on 127.0.0.1 only, trust auth, one
// database. PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user
// the Debian package creates.

import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './adk-server.ts';

export interface Postgres {
  /** e.g. postgresql://postgres@127.0.0.1:5433/adk */
  readonly url: string;
  stop(): void;
}

/** The folder of Debian's PostgreSQL binaries (the newest version installed). */
function binaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(
      'PostgreSQL is not installed: install Debian\'s "postgresql" package (apt-get install -y postgresql); .ci/run does',
    );
  return join(root, versions[0]!, 'bin');
}

export async function startPostgres(database = 'adk'): Promise<Postgres> {
  const bin = binaries();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'trellis-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const { uid, gid } = userIds('postgres');
    chownSync(dir, uid, gid);
  }
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]]
      : [join(bin, command), args];
    const result = spawnSync(file, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0)
      throw new Error(`${command} failed (${result.status}): ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stop = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped: nothing to do but remove its files
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', database]);
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgresql://postgres@127.0.0.1:${port}/${database}`, stop };
}

function userIds(name: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid };
}
