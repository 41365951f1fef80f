import {
  type AccountKeyType,
  type DevnetFunding,
  type DevnetHost,
  isNativeCoin,
  type KeyFileAccount,
  keyFileAccount,
} from '@dex/server';

/** One of the bot's accounts: its registry record and its private key (hex), which only the bot's signer sees. */
export type BotAccount = KeyFileAccount;

/** The quoting account is an Ed25519 ledger account and the taking one a secp256k1 key, so both key types trade. */
export interface BotAccounts {
  readonly maker: BotAccount;
  readonly taker: BotAccount;
}

/** Key files in DATA_DIR (mode 600, made once, reused after a restart). */
const KEY_FILES: Record<keyof BotAccounts, { file: string; keyType: AccountKeyType }> = {
  maker: { file: 'market-maker-maker.key', keyType: 'ED25519' },
  taker: { file: 'market-maker-taker.key', keyType: 'ECDSA_SECP256K1' },
};

/** Whole units of every token an account is given at once; far more than its quotes ever hold. */
export const BOT_FUNDING_UNITS = 1_000_000n;
/** A balance below this share of the funding is topped up. */
const TOP_UP_BELOW_DIVISOR = 10n;

/**
 * The bot's accounts, made on the first start: keys generated into DATA_DIR, registered in the
 * devnet account registry (found again by public key after a restart), and with an issuer the
 * Ed25519 key published at 0x16a and both accounts funded (see {@link topUpBotAccounts}).
 */
export async function provisionBotAccounts(services: DevnetHost, issuer: DevnetFunding | null): Promise<BotAccounts> {
  const account = (role: keyof BotAccounts) => keyFileAccount(services, KEY_FILES[role].file, KEY_FILES[role].keyType);
  const accounts = { maker: await account('maker'), taker: await account('taker') };
  if (issuer !== null) {
    await issuer.publishKey(accounts.maker.record);
    await topUpBotAccounts(services, accounts, issuer);
  }
  return accounts;
}

/**
 * Mints BOT_FUNDING_UNITS of a token (and sets an unlimited reactor allowance) for each bot account
 * whose balance of it fell below a tenth of that. Returns the number of accounts topped up.
 */
export async function topUpBotAccounts(services: DevnetHost, accounts: BotAccounts, issuer: DevnetFunding): Promise<number> {
  if (services.funds === null) return 0;
  // The native coin is held as the wrapped token its books settle in, which is funded as a token of its own.
  const tokens = (await services.store.tokens.list()).filter((token) => !isNativeCoin(token));
  let funded = 0;
  for (const { record } of [accounts.maker, accounts.taker]) {
    const holdings = await services.funds.holdings(
      record.evmAddress,
      tokens.map((token) => token.evmAddress),
    );
    const low = tokens.flatMap((token) => {
      const amount = BOT_FUNDING_UNITS * 10n ** BigInt(token.decimals);
      const holding = holdings.get(token.evmAddress.toLowerCase());
      const short = holding === undefined || holding.balance < amount / TOP_UP_BELOW_DIVISOR || holding.allowance < amount;
      return short ? [{ token: token.evmAddress, amount }] : [];
    });
    if (low.length === 0) continue;
    await issuer.fund(record.evmAddress, low);
    funded++;
  }
  return funded;
}
