// What the production build asks a browser to download, gzipped as a server would send it
// (zlib's default level): the page's JS and CSS, the Markdown renderer's lazy chunk, the runtime
// worker, the service worker.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface BundleSize {
  name: string;
  files: string[];
  bytes: number;
  gzipBytes: number;
}

export function bundleSizes(dir: string): BundleSize[] {
  const assets = readdirSync(join(dir, 'assets')).map((file) => `assets/${file}`);
  const top = readdirSync(dir);
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const referenced = (file: string) => html.includes(file);
  const js = assets.filter((file) => file.endsWith('.js'));
  // The runtime worker's chunk is named after its entry (workers/runtime.ts).
  const worker = js.filter((file) => /^assets\/runtime-/.test(file));
  const css = assets.filter((file) => file.endsWith('.css'));
  // The Markdown renderer's chunk is named after its entry (src/ui/markdown/markdown-renderer.ts).
  const markdown = assets.filter((file) =>
    /^assets\/markdown-renderer-[\w-]+\.(js|css)$/.test(file),
  );
  const groups: [string, string[]][] = [
    ['page JS (loaded by index.html)', js.filter(referenced)],
    ['page JS (loaded later)', js.filter((file) => !referenced(file) && !worker.includes(file))],
    ['· of which the Markdown renderer, with its CSS (the first agent message loads it)', markdown],
    ['page CSS (loaded by index.html)', css.filter(referenced)],
    ['runtime worker JS', worker],
    ['service worker JS', top.filter((file) => /^(sw|workbox-[\w-]+)\.js$/.test(file))],
  ];
  return groups.map(([name, files]) => {
    const contents = files.map((file) => readFileSync(join(dir, file)));
    return {
      name,
      files,
      bytes: contents.reduce((sum, content) => sum + content.length, 0),
      gzipBytes: contents.reduce((sum, content) => sum + gzipSync(content).length, 0),
    };
  });
}
