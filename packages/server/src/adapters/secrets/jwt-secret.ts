import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { localSecret } from './local-secret.js';

/**
 * The access-token key: JWT_SECRET when set; on the devnet, a random key kept in DATA_DIR so
 * tokens survive a restart.
 */
export function resolveJwtSecret(config: { readonly jwtSecret: string | undefined; readonly dataDir: string }): string {
  return config.jwtSecret ?? localSecret(join(config.dataDir, 'jwt-secret'), () => randomBytes(32).toString('base64url'));
}
