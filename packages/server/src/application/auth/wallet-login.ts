import { AppError } from '../../domain/errors.js';
import type { Network } from '../../domain/network.js';
import { verifyEd25519Strict } from '../../domain/signatures/ed25519.js';
import { recoverPersonalSigner } from '../../domain/signatures/personal-sign.js';
import type { Clock } from '../../ports/clock.js';
import type { LoginChallenges } from '../../ports/login-challenges.js';
import type { AccessTokens } from './access-tokens.js';
import { LoginRefusal } from './login-refusals.js';
import type { AccountDirectory, TradingIdentity } from './trading-identity.js';

/** Name the challenge message gives the service (also the JWT issuer's prefix). */
export const SERVICE_NAME = 'dex-exchange';

/** 64 bytes (Ed25519) or 65 (secp256k1 r,s,v). */
const SIGNATURE_HEX = /^0x(?:[0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/;

/** Whether `signature` signs `message` for this identity (EIP-191 for secp256k1, raw message bytes for Ed25519). */
function signs(identity: TradingIdentity, message: string, signature: Uint8Array): boolean {
  const { signer } = identity;
  if (signer.type === 'ed25519') {
    return signature.length === 64 && verifyEd25519Strict(signer.publicKey, new TextEncoder().encode(message), signature);
  }
  if (signer.type !== 'secp256k1-address' || signature.length !== 65) return false;
  return recoverPersonalSigner(message, signature) === signer.address;
}

/**
 * The wallet challenge flow: a single-use message naming service, network, account and nonce;
 * a signature of it by the account's key is exchanged for a short-lived access token.
 */
export class WalletLogin {
  constructor(
    private readonly challenges: LoginChallenges,
    private readonly directory: AccountDirectory,
    private readonly tokens: AccessTokens,
    private readonly clock: Clock,
    private readonly network: { name: Network; chainId: number },
  ) {}

  /** A challenge of `account` for the client at `requester` (its address: the bounds of login-challenges.ts are kept per requester). */
  async challenge(account: string, requester: string): Promise<string> {
    if ((await this.directory.identify(account)) === undefined) throw new AppError('UNKNOWN_ACCOUNT');
    const now = this.clock.now();
    const issued = await this.challenges.issue(account, requester, now, (nonce, expiresAt) =>
      [
        `${SERVICE_NAME} asks you to sign in with account ${account}.`,
        'Signing proves you hold its key; it costs nothing and moves no funds.',
        '',
        `Service: ${SERVICE_NAME}`,
        `Network: ${this.network.name} (chain ${this.network.chainId})`,
        `Account: ${account}`,
        `Nonce: ${nonce}`,
        `Issued At: ${new Date(now).toISOString()}`,
        `Expiration Time: ${new Date(expiresAt).toISOString()}`,
      ].join('\n'),
    );
    return issued.message;
  }

  /** Exchanges a signature of one of the account's open challenges for an access token. */
  async verify(account: string, signatureHex: string): Promise<string> {
    if (!SIGNATURE_HEX.test(signatureHex)) {
      throw new AppError('VALIDATION_FAILED', 'signature must be 0x-prefixed hex of 64 or 65 bytes');
    }
    const identity = await this.directory.identify(account);
    if (identity === undefined) throw LoginRefusal.noUsableKey(account);
    const now = this.clock.now();
    const signature = Uint8Array.from(Buffer.from(signatureHex.slice(2), 'hex'));
    const open = await this.challenges.pending(account, now);
    const latest = open.at(-1);
    if (latest === undefined) throw LoginRefusal.noOpenChallenge(account);
    const answered = open.find((challenge) => signs(identity, challenge.message, signature));
    // The signer is told against the latest challenge: the one a client that just asked signs.
    if (answered === undefined) throw LoginRefusal.wrongKey(identity, account, latest.message, signature);
    // Answered by a concurrent login of the same signature between pending and consume.
    if (!(await this.challenges.consume(account, answered.nonce, now))) throw LoginRefusal.noOpenChallenge(account);
    // The name it trades under: a 0x alias of a ledger account logs in as that account.
    return this.tokens.issue(identity.account);
  }
}
