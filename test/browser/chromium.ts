/** Debian's Chromium for the browser tests, installed with apt when it is absent (CI runs as root). */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Flags for a headless run on a machine whose network reaches only package registries: without the
 * background-networking ones Chromium keeps opening connections that are refused.
 */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Installs Debian's package unless it is there, under a lock: the browser suites run in parallel
 * workers, and a second apt-get beside the first fails on apt's own lock.
 */
const INSTALL = `[ -x ${CHROMIUM} ] || { apt-get update && apt-get install -y --no-install-recommends chromium; }`;

/**
 * Chromium's path, installing Debian's package first when it is missing and this process may
 * (root, with apt-get and flock); otherwise why there is none, for the suite to skip with that notice.
 */
export function ensureChromium(): { path: string } | { missing: string } {
  if (existsSync(CHROMIUM)) return { path: CHROMIUM };
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get') || !existsSync('/usr/bin/flock')) {
    return { missing: `${CHROMIUM} is absent and this user cannot install it (apt-get install -y chromium as root)` };
  }
  const lock = join(tmpdir(), 'dex-chromium-install.lock');
  execFileSync('flock', [lock, 'sh', '-c', INSTALL], { stdio: 'ignore', timeout: 600_000 });
  return existsSync(CHROMIUM) ? { path: CHROMIUM } : { missing: `apt-get installed no ${CHROMIUM}` };
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: FLAGS, headless: true, timeout: 60_000 });
}
