import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BUILT_INDEX =
  '<!doctype html><head><title>markets</title><script type="module" src="/assets/index-abc123.js"></script></head>';
export const BUILT_SCRIPT = 'console.log("page")';

/** A built page as Vite lays it out, written into `dir`: index.html, hashed assets, a source map beside them. */
export function writeBuiltPage(dir: string): string {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), BUILT_INDEX);
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), BUILT_SCRIPT);
  writeFileSync(join(dir, 'assets', 'index-abc123.js.map'), '{}');
  return dir;
}
