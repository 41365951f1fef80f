import {
  ACCOUNT_KEY_SERVICE_ADDRESS,
  associateToken,
  DevnetAccountKeyService,
  type DevnetClients,
  type DevnetWallet,
  fund,
  installAccountKeyService,
  installTestToken,
  installWrappedNative,
  isAssociated,
  isWrappedNative,
  PartialFillLimitOrderReactor,
  permit2Approvals,
  registerEd25519Key,
  TestToken,
  WEI_PER_TINYBAR,
  WrappedNative,
} from '@dex/contracts';
import { type Address, getAddress, type Hex } from 'viem';
import type { AccountKeyRecord } from '../../../domain/accounts/account-keys.js';
import { isNativeCoin } from '../../../domain/markets/market.js';
import type { TokenRecord } from '../../../domain/markets/market-records.js';
import type { DevnetFunding, FundingOptions, FundingResult } from '../../../ports/devnet-funding.js';
import type { ChainContext } from '../chain-context.js';

/**
 * The devnet's issuer: the test tokens' minter and the registrar of devnet keys at 0x16a. Nobody
 * holds a key for it (the address is derived from a label); its transactions go through anvil's
 * impersonation, so they never compete with the operator's nonces, whichever process sends them.
 */
export const DEVNET_ISSUER_ADDRESS: Address = '0x4E5F82fFcD9ec3850FdDbB59b717827A0A1C9Cae';

/** The native coin a funded account keeps for gas (1,000,000 HBAR in wei), beside what it wraps. */
const GAS_MONEY = 10n ** 24n;

export class DevnetIssuerError extends Error {
  override readonly name = 'DevnetIssuerError';
}

/**
 * Gives devnet accounts what they need to trade: gas money, the association with each token (the
 * ledger pays no account that is not associated), test tokens, the live onboarding's unlimited
 * approvals (the token to Permit2, and the reactor inside Permit2), the association and approvals
 * sent by the account itself through impersonation, so it works the same for secp256k1 wallets and
 * Ed25519 ledger accounts, which cannot sign EVM transactions here), and for Ed25519 accounts their
 * key in the 0x16a registry the reactor checks signatures against.
 */
export class DevnetIssuer implements DevnetFunding {
  private ready: Promise<void> | undefined;

  constructor(
    private readonly devnet: DevnetClients,
    private readonly reactor: Address,
  ) {}

  /** The issuer of the service's own devnet chain. */
  static of(chain: Pick<ChainContext, 'devnet' | 'reactor'>): DevnetIssuer {
    if (chain.devnet === null) throw new DevnetIssuerError('the issuer exists on the embedded devnet chain only');
    return new DevnetIssuer(chain.devnet, chain.reactor);
  }

  /** Installs the key registry at 0x16a (once) with the issuer as registrar. */
  async installKeyRegistry(): Promise<void> {
    await this.asIssuer((issuer) => installAccountKeyService(this.devnet, issuer));
  }

  /**
   * Installs a registry token at its ledger address (once): the native coin needs nothing, the
   * chain's wrapped native token (`wrappedNative`) is the devnet's WrappedNative, any other a
   * devnet ERC-20 the issuer mints. The reactor's fee recipient is associated with it, as the live
   * operator associates its fee account with every token it lists: the reactor could not pay it
   * the fees otherwise.
   */
  async installToken(token: TokenRecord, wrappedNative: Address | null = null): Promise<void> {
    if (isNativeCoin(token)) return;
    const address = getAddress(token.evmAddress);
    const spec = { address, name: token.name, symbol: token.symbol, decimals: token.decimals };
    await this.asIssuer((issuer) =>
      address === wrappedNative ? installWrappedNative(this.devnet, issuer, spec) : installTestToken(this.devnet, issuer, spec),
    );
    const feeRecipient = await this.devnet.public.readContract({
      address: this.reactor,
      abi: PartialFillLimitOrderReactor.abi,
      functionName: 'feeRecipient',
    });
    await this.impersonated(feeRecipient, (wallet) => associateToken(this.devnet, wallet, address));
  }

  /** Publishes an Ed25519 account's key at 0x16a unless it is there already; other key types need none. */
  async publishKey(record: AccountKeyRecord): Promise<void> {
    if (record.keyType !== 'ED25519') return;
    const account = getAddress(record.evmAddress);
    const key = `0x${record.publicKey}` as Hex;
    const current = await this.devnet.public.readContract({
      address: ACCOUNT_KEY_SERVICE_ADDRESS,
      abi: DevnetAccountKeyService.abi,
      functionName: 'ed25519KeyOf',
      args: [account],
    });
    if (current.toLowerCase() === key.toLowerCase()) return;
    await this.asIssuer((issuer) => registerEd25519Key(this.devnet, issuer, account, key));
  }

  /** The Permit2 the reactor pulls through. */
  private permit2(): Promise<Address> {
    return this.devnet.public.readContract({
      address: this.reactor,
      abi: PartialFillLimitOrderReactor.abi,
      functionName: 'permit2',
    });
  }

  /**
   * Gas money, then each token, associated first unless told not to (then only the tokens the
   * account associated itself): the native coin (the zero address) as native coin beside the gas
   * money; the wrapped native coin deposited by the holder (native coin given for it), so every
   * unit of it stays backed; any other minted by the issuer. Tokens are approved as onboarding does.
   */
  async fund(
    account: string,
    tokens: readonly { token: string; amount: bigint }[],
    options: FundingOptions = {},
  ): Promise<FundingResult> {
    const holder = getAddress(account);
    const kinds = await Promise.all(tokens.map(({ token }) => this.kindOf(getAddress(token))));
    const native = tokens.reduce((sum, { amount }, index) => (kinds[index] === 'token' ? sum : sum + amount), 0n);
    await fund(this.devnet, holder, GAS_MONEY + native * WEI_PER_TINYBAR);
    const result = { associated: [] as string[], unassociated: [] as string[] };
    await this.impersonated(holder, async (self) => {
      for (const [index, { token, amount }] of tokens.entries()) {
        const address = getAddress(token);
        if (kinds[index] === 'native') continue;
        if (options.associate === false) {
          if (!(await isAssociated(this.devnet, address, holder))) {
            result.unassociated.push(token);
            continue;
          }
        } else if (await associateToken(this.devnet, self, address)) {
          result.associated.push(token);
        }
        await this.issue(self, address, amount, kinds[index]);
        if (options.approve === false) continue;
        for (const approval of permit2Approvals(address, await this.permit2(), this.reactor)) {
          await this.mined(self.writeContract(approval as Parameters<typeof self.writeContract>[0]));
        }
      }
    });
    return result;
  }

  /** Runs `work` with `account`'s wallet, impersonated for the while (it needs gas money). */
  private async impersonated<T>(account: Address, work: (wallet: DevnetWallet) => Promise<T>): Promise<T> {
    await this.devnet.test.impersonateAccount({ address: account });
    try {
      return await work(this.devnet.wallet(account));
    } finally {
      await this.devnet.test.stopImpersonatingAccount({ address: account });
    }
  }

  /**
   * Gives `wallet` `amount` of a token it may hold: the wrapped native coin deposited by the
   * wallet itself out of its native coin, which nobody mints so that every unit stays backed; any
   * other token minted by the issuer.
   */
  async issue(wallet: DevnetWallet, token: Address, amount: bigint, kind?: 'wrapped' | 'token'): Promise<void> {
    if ((kind ?? (await this.kindOf(token))) === 'wrapped') {
      const value = amount * WEI_PER_TINYBAR;
      await this.mined(wallet.writeContract({ address: token, abi: WrappedNative.abi, functionName: 'deposit', value }));
      return;
    }
    const to = wallet.account.address;
    await this.asIssuer((issuer) =>
      this.mined(issuer.writeContract({ address: token, abi: TestToken.abi, functionName: 'mint', args: [to, amount] })),
    );
  }

  /** How a token is funded: the native coin itself, the wrapped native coin, or a token the issuer mints. */
  private async kindOf(address: Address): Promise<'native' | 'wrapped' | 'token'> {
    if (isNativeCoin({ evmAddress: address })) return 'native';
    return (await isWrappedNative(this.devnet, address)) ? 'wrapped' : 'token';
  }

  /**
   * Runs `work` with the issuer's wallet (its nonces come from the node, so any process may send as
   * the issuer); the issuer stays impersonated (other processes may use it too).
   */
  async asIssuer<T>(work: (issuer: DevnetWallet) => Promise<T>): Promise<T> {
    // Gas money and impersonation once per issuer, not per transaction.
    this.ready ??= fund(this.devnet, DEVNET_ISSUER_ADDRESS).then(() =>
      this.devnet.test.impersonateAccount({ address: DEVNET_ISSUER_ADDRESS }),
    );
    await this.ready;
    return work(this.devnet.wallet(DEVNET_ISSUER_ADDRESS));
  }

  private async mined(sent: Promise<Hex>): Promise<void> {
    const receipt = await this.devnet.public.waitForTransactionReceipt({ hash: await sent });
    if (receipt.status !== 'success') throw new DevnetIssuerError(`devnet transaction ${receipt.transactionHash} reverted`);
  }
}
