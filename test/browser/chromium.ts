/** Debian's Chromium for the browser tests, installed with apt when it is absent (CI runs as root). */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
 * Chromium's path, installing Debian's package first when it is missing and this process may
 * (root, with apt-get); otherwise why there is none, for the suite to skip with that notice.
 */
export function ensureChromium(): { path: string } | { missing: string } {
  if (existsSync(CHROMIUM)) return { path: CHROMIUM };
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    return { missing: `${CHROMIUM} is absent and this user cannot install it (apt-get install -y chromium as root)` };
  }
  const apt = (args: string[]) => execFileSync('apt-get', args, { stdio: 'ignore', timeout: 600_000 });
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', 'chromium']);
  return existsSync(CHROMIUM) ? { path: CHROMIUM } : { missing: `apt-get installed no ${CHROMIUM}` };
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: FLAGS, headless: true, timeout: 60_000 });
}
