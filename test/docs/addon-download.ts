import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * What a reader's `npm install` of better-sqlite3 downloads: its installer (prebuild-install) fetches
 * the addon built for the reader's Node from the project's GitHub releases, and compiles it only when
 * that fails. This machine reaches no GitHub, so it would compile every time. The same download is
 * served here from 127.0.0.1: the addon `npm ci` built in this clone, of the version the packed
 * service pins, at the address the installer takes from its environment.
 */
export interface AddonDownload {
  /** The variables that point the installer at this server. */
  readonly env: Record<string, string>;
  /** Stops listening and drops the installers' keep-alive sockets. */
  close(): void;
}

export async function serveBuiltAddon(repository: string, folder: string): Promise<AddonDownload> {
  const packageJson = join(repository, 'node_modules', 'better-sqlite3', 'package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  // prebuild-install's name for a glibc Linux or a macOS build: {name}-v{version}-{runtime}-v{abi}-{platform}-{arch}
  const tarball = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(folder, tarball), '-C', dirname(packageJson), 'build/Release/better_sqlite3.node']);
  const body = readFileSync(join(folder, tarball));
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === `/v${version}/${tarball}`) {
      response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length }).end(body);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: { npm_config_better_sqlite3_binary_host: `http://127.0.0.1:${port}` },
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}
