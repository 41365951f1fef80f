// Builds the TypeScript packages the command-line tools, the packed packages and the processes the
// test suite starts are made of, only when a source changed since the last build: an up-to-date
// check of our own costs milliseconds where `tsc -b` alone takes a second. Never runs the web
// page's build, so a running server's files stay as they are.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repository = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['core', 'contracts', 'protocol', 'server', 'sdk', 'market-maker', 'devnet'];
const stamp = join(repository, 'node_modules', '.cache', 'dex-build', 'stamp');

/** The newest modification time of a file under `path` (a file or a folder), in ms. */
function newest(path) {
  const entry = statSync(path, { throwIfNoEntry: false });
  if (entry === undefined) return 0;
  if (!entry.isDirectory()) return entry.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => (name === 'generated' ? 0 : newest(join(path, name)))));
}

function sourcesChangedSince(time) {
  return PACKAGES.some((name) =>
    ['src', 'package.json', 'tsconfig.json'].some((part) => newest(join(repository, 'packages', name, part)) > time),
  );
}

/**
 * Records a build that started at `started` (a Date) and passed, as `npm test` does after its own
 * `npm run build`. An edit made while the build ran is newer than the stamp, so the next call
 * builds again.
 */
export function markBuilt(started) {
  mkdirSync(join(stamp, '..'), { recursive: true });
  writeFileSync(stamp, '');
  utimesSync(stamp, started, started);
}

/** Builds what changed; returns whether it had to. */
export function buildIfChanged() {
  const built = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  if (built >= 0 && !sourcesChangedSince(built)) return false;
  const started = new Date();
  process.stderr.write('sources changed since the last build: building the packages (tsc -b)...\n');
  const run = (args) => execFileSync(process.execPath, args, { cwd: repository, stdio: ['ignore', 'ignore', 'inherit'] });
  run([join(repository, 'packages', 'contracts', 'scripts', 'compile.mjs')]);
  run([join(repository, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', ...PACKAGES.map((name) => `packages/${name}`)]);
  markBuilt(started);
  return true;
}
