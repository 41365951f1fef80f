import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';

/**
 * The access-token key: JWT_SECRET when set; on the devnet, a random key kept in DATA_DIR (created
 * once, readable by the owner only) so tokens survive a restart.
 */
export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret !== undefined) return config.jwtSecret;
  const file = join(config.dataDir, 'jwt-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  return readFileSync(file, 'utf8').trim();
}
