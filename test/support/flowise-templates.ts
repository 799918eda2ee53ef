// Flowise's own marketplace templates, for tests that import the real thing: Flowise's published
// npm package (flowise@3.1.4) holds them under `package/marketplaces/agentflows*/`. Their files
// are Flowise's, so none is kept in this repository: the package is fetched from the npm registry
// at test time with `npm pack` (once: it is cached under node_modules/.cache), checked against
// the integrity the registry published for that version, and the templates are read out of it
// with Node's zlib and the small tar reader below.
//
// No registry, no test: a failure to fetch says so and fails the test (CI has the registry).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';

export const FLOWISE_VERSION = '3.1.4';
/** `npm view flowise@3.1.4 dist.integrity`. */
const INTEGRITY =
  'sha512-vzJwKmuFybms7XG5ZM8Ty6wOR7xjEiY3zpf9FwULr47D4B7zJBYxF7FSnZ4JkexsZwZPegcyRRHBJkpVAcvkwg==';
const CACHE = resolve(import.meta.dirname, '../../node_modules/.cache/trellis-flowise');
const TARBALL = join(CACHE, `flowise-${FLOWISE_VERSION}.tgz`);

export interface FlowiseTemplate {
  /** Its path in the package, e.g. `marketplaces/agentflows/Agentic RAG.json`. */
  path: string;
  /** Its name: the file's, without `.json` (`Agentic RAG`). */
  name: string;
  text: string;
}

/** Every template under `marketplaces/agentflows*` of the Flowise package, by path. */
export function flowiseTemplates(): FlowiseTemplate[] {
  const entries = readTar(gunzipSync(flowiseTarball()));
  return entries
    .filter(({ path }) => /^package\/marketplaces\/agentflows[^/]*\/[^/]+\.json$/.test(path))
    .map(({ path, data }) => ({
      path: path.slice('package/'.length),
      name: path.slice(path.lastIndexOf('/') + 1, -'.json'.length),
      text: data.toString('utf8'),
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** The package's tarball, fetched once and checked each time it is read. */
function flowiseTarball(): Buffer {
  if (!existsSync(TARBALL)) fetchTarball();
  const data = readFileSync(TARBALL);
  const integrity = `sha512-${createHash('sha512').update(data).digest('base64')}`;
  if (integrity !== INTEGRITY) {
    rmSync(TARBALL, { force: true });
    throw new Error(
      `${TARBALL} is not flowise@${FLOWISE_VERSION} as the npm registry published it ` +
        `(integrity ${integrity}, expected ${INTEGRITY}): it was removed; run the test again`,
    );
  }
  return data;
}

function fetchTarball(): void {
  // Packed into a folder of its own, then moved: a run cut off half-way leaves no tarball.
  const partial = join(CACHE, `partial-${process.pid}`);
  mkdirSync(partial, { recursive: true });
  try {
    execFileSync('npm', ['pack', `flowise@${FLOWISE_VERSION}`, '--pack-destination', partial], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    renameSync(join(partial, `flowise-${FLOWISE_VERSION}.tgz`), TARBALL);
  } catch (error) {
    const said = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(
      `Could not fetch flowise@${FLOWISE_VERSION} from the npm registry with npm pack, ` +
        `which this test needs (Flowise's templates are not kept in this repository): ` +
        `${said || (error as Error).message}`,
    );
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

interface TarEntry {
  path: string;
  data: Buffer;
}

/**
 * The regular files of a tar archive (ustar, with pax `path` records, as npm packs): each entry
 * is a 512-byte header, then its data padded to 512 bytes; two empty blocks end the archive.
 */
export function readTar(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let longPath: string | undefined;
  for (let at = 0; at + 512 <= archive.length;) {
    const header = archive.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0[\s\S]*$/, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const data = archive.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      longPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1] ?? longPath;
      continue;
    }
    if (type === '0') entries.push({ path: longPath ?? name, data });
    longPath = undefined;
  }
  return entries;
}
