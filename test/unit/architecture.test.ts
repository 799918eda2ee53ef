// The house rules of docs/architecture.md, checked on the source. Who may import what is
// dependency-cruiser's job (.dependency-cruiser.cjs, the layer table written as rules, no import
// circles); what no import shows (a global `indexedDB`, a Comlink `expose`) is checked here.

import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const layers = join(root, 'test/layers');
const depcruise = join(layers, 'node_modules/.bin/depcruise');
const config = join(root, '.dependency-cruiser.cjs');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'),
    )
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** dependency-cruiser over `paths`, run in `cwd`: its exit status and its report. */
function cruise(cwd: string, paths: string[]): { status: number | null; report: string } {
  const run = spawnSync(depcruise, ['--config', config, '--output-type', 'err', ...paths], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, report: `${run.stdout}${run.stderr}` };
}

beforeAll(() => {
  // dependency-cruiser and the TypeScript 5 parser it needs live in their own package (the
  // project compiles with TypeScript 7, which has no JavaScript API yet); CI installs it first.
  if (!existsSync(depcruise)) {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--silent'], {
      cwd: layers,
      timeout: 300_000,
    });
  }
}, 320_000);

describe('architecture', () => {
  it('follows the layer table: no import breaks a rule of .dependency-cruiser.cjs, and there is no circle', () => {
    const { status, report } = cruise(root, ['src', 'workers']);
    expect(report).toContain('no dependency violations found');
    expect(status).toBe(0);
  }, 120_000);

  describe('a violating import', () => {
    let dir: string;
    beforeAll(() => {
      // A small tree with the project's folder names, each file breaking one rule.
      dir = mkdtempSync(join(tmpdir(), 'trellis-layers-'));
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({
          compilerOptions: {
            module: 'ESNext',
            moduleResolution: 'bundler',
            allowImportingTsExtensions: true,
          },
        }),
        'src/core/pure.ts':
          "import { openStore } from '../store/store.ts';\nexport const core = openStore;\n",
        'src/store/store.ts': "import { openDB } from 'idb';\nexport const openStore = openDB;\n",
        'src/ui/view.ts':
          "import { openStore } from '../store/store.ts';\nimport { openDB } from 'idb';\nexport const view = [openStore, openDB];\n",
        'src/ui/panel.ts':
          "import { run } from '../../workers/runs.ts';\nexport const panel = run;\n",
        'workers/runs.ts': 'export const run = 1;\n',
        'src/agents/a.ts': "import type { B } from './b.ts';\nexport interface A { b?: B }\n",
        'src/agents/b.ts': "import type { A } from './a.ts';\nexport interface B { a?: A }\n",
      };
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), text);
      }
      symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('fails the check, naming the rule and the import', () => {
      const { status, report } = cruise(dir, ['src', 'workers']);
      expect(status).not.toBe(0);
      expect(report).toMatch(/core-is-pure: src\/core\/pure\.ts → src\/store\/store\.ts/);
      expect(report).toMatch(/page-not-store: src\/ui\/view\.ts → src\/store\/store\.ts/);
      expect(report).toMatch(/only-store-imports-idb: src\/ui\/view\.ts → \S*node_modules\/idb\//);
      expect(report).toMatch(
        /page-reaches-worker-through-runtime-client: src\/ui\/panel\.ts → workers\/runs\.ts/,
      );
      // A circle of type-only imports is a circle too.
      expect(report).toMatch(/no-circular: src\/agents\/(a|b)\.ts/);
      expect(report).not.toMatch(/src\/store\/store\.ts → \S*node_modules\/idb/);
    }, 120_000);
  });

  const files = [...sourceFiles('src'), ...sourceFiles('workers')];

  it('lets only src/store touch IndexedDB, also through the global', () => {
    const offenders = files.filter(
      (file) =>
        !file.startsWith('src/store/') &&
        /\bindexedDB\b|IDBKeyRange/.test(readFileSync(join(root, file), 'utf8')),
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
});
