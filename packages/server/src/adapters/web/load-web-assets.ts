import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { WebAsset, WebAssets } from '../../ports/web-assets.js';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
/** A page is a few hundred kilobytes; a folder far larger is not the built page. */
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;

/**
 * The built web page in `root`, or null when there is none (no `index.html`: `npm run build` has
 * not run, or the operator turned the page off). Only files of known types are served, read once
 * here, so a request path is a key to look up, never a path on disk. Source maps stay on disk.
 */
export function loadWebAssets(root: string): WebAssets | null {
  if (!existsSync(join(root, 'index.html'))) return null;
  const assets = new Map<string, WebAsset>();
  let total = 0;
  for (const file of filesUnder(root)) {
    const contentType = CONTENT_TYPES[extname(file)];
    if (contentType === undefined) continue;
    const body = readFileSync(file);
    total += body.length;
    if (total > MAX_TOTAL_BYTES) throw new Error(`${root} holds more than ${MAX_TOTAL_BYTES} bytes: not a built web page`);
    const path = `/${relative(root, file).split(sep).join('/')}`;
    assets.set(path, { body, contentType, immutable: path.startsWith('/assets/') });
  }
  return assets;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
