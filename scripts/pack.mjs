#!/usr/bin/env node
// `npm run pack`: the packages a user installs, as tarballs in packs/ (built first if a source changed):
// the SDK with the trader CLI and what it needs (@dex/core, @dex/protocol), and the service with the
// operator CLI (@dex/server, @dex/contracts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfChanged } from './build-if-changed.mjs';

const repository = fileURLToPath(new URL('..', import.meta.url));
const destination = resolve(repository, process.argv[2] ?? 'packs');
const PACKED = ['core', 'protocol', 'sdk', 'contracts', 'server'];

buildIfChanged();
rmSync(destination, { recursive: true, force: true });
mkdirSync(destination, { recursive: true });
const npm = process.env.npm_execpath;
const [command, prefix] = npm === undefined ? ['npm', []] : [process.execPath, [npm]];
execFileSync(
  command,
  [...prefix, 'pack', '--silent', '--pack-destination', destination, ...PACKED.flatMap((name) => ['-w', `packages/${name}`])],
  { cwd: repository, stdio: ['ignore', 'ignore', 'inherit'] },
);
for (const tarball of readdirSync(destination).sort()) process.stdout.write(`${join(destination, tarball)}\n`);
