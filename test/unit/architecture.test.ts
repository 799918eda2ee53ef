// The house rules of DESIGN §1, checked on the source: who may import what.

import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'),
    )
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)[^'"]*from\s*['"]([^'"]+)['"]/gm)].map(
    (m) => m[1]!,
  );
}

const files = [...sourceFiles('src'), ...sourceFiles('workers')];

describe('architecture', () => {
  it('keeps src/core pure: it imports only from src/core', () => {
    const offenders = files
      .filter((file) => file.startsWith('src/core/'))
      .flatMap((file) =>
        importsOf(file)
          .filter((spec) => !spec.startsWith('./'))
          .map((spec) => `${file} → ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it('lets only src/store touch IndexedDB', () => {
    const offenders = files.filter(
      (file) =>
        !file.startsWith('src/store/') &&
        (importsOf(file).includes('idb') ||
          /\bindexedDB\b|IDBKeyRange/.test(readFileSync(join(root, file), 'utf8'))),
    );
    expect(offenders).toEqual([]);
  });

  it('exposes only workers/runtime.ts through Comlink', () => {
    const offenders = files.filter(
      (file) =>
        file !== 'workers/runtime.ts' && /\bexpose\(/.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('has the page import the worker only as a type (and the data-only protocol)', () => {
    const offenders = files
      .filter((file) => file.startsWith('src/'))
      .flatMap((file) =>
        [
          ...readFileSync(join(root, file), 'utf8').matchAll(
            /^\s*import\s+(?!type\b)[^'"]*from\s*['"]([^'"]*workers\/[^'"]*)['"]/gm,
          ),
        ]
          .map((m) => m[1]!)
          .filter((spec) => !spec.endsWith('/protocol.ts'))
          .map((spec) => `${file} → ${spec}`),
      );
    expect(offenders).toEqual([]);
  });
});
