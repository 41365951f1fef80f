import { normaliseAccountId } from '../../../application/auth/trading-identity.js';
import { type DevnetFunding, DevnetNotRunningError } from '../../../ports/devnet-funding.js';
import type { AccountKeyRecord } from '../../../ports/store/ports.js';
import type { OperatorCommand } from '../operator-command.js';
import type { OperatorIo } from '../operator-io.js';
import { need, UsageError, type Values, wholeNumber } from '../operator-options.js';

const DEFAULT_FUNDING = 1_000;

/** Whole units of each token to fund with: --amount, else 1,000. */
function fundingAmount(values: Values): number {
  return values.amount === undefined ? DEFAULT_FUNDING : wholeNumber(values.amount, 'amount', 1_000_000_000);
}

interface Funding {
  readonly account: string;
  readonly address: string;
  /** Whole units of each token. */
  readonly amount: number;
  /** Whether the faucet also approved the reactor through Permit2 for the account. */
  readonly approved: boolean;
  /** The tokens funded. */
  readonly tokens: string[];
  /** Tokens the faucet associated the account with, on its behalf (anvil impersonation). */
  readonly associated: string[];
  /** Tokens not funded (--no-associate): the account has not associated them itself. */
  readonly unassociated: string[];
}

/**
 * Associates the account with every registry token unless `--no-associate` (on its behalf, through
 * the devnet's impersonation), mints `amount` whole units of each token it is associated with, and,
 * unless `--no-approve`, approves the reactor through Permit2 for it (an Ed25519 account cannot send
 * those transactions here itself).
 */
async function fund(
  record: { account: string; address: string },
  amount: number,
  values: Values,
  io: OperatorIo,
  issuer: DevnetFunding,
): Promise<Funding> {
  const tokens = await io.store.tokens.list();
  const approve = values.approve !== false;
  const result = await issuer.fund(
    record.address,
    tokens.map((token) => ({ token: token.evmAddress, amount: BigInt(amount) * 10n ** BigInt(token.decimals) })),
    { approve, associate: values.associate !== false },
  );
  const symbols = (addresses: readonly string[]) =>
    tokens.filter((token) => addresses.includes(token.evmAddress)).map((token) => token.symbol);
  const unassociated = symbols(result.unassociated);
  return {
    ...record,
    amount,
    approved: approve,
    tokens: tokens.map((token) => token.symbol).filter((symbol) => !unassociated.includes(symbol)),
    associated: symbols(result.associated),
    unassociated,
  };
}

/** The funding in words: the tokens, what the faucet did on the account's behalf, and what it left to the account. */
export function describeFunding(funded: Funding): string {
  const notes = [
    funded.associated.length > 0 ? `associated with ${funded.associated.join(', ')} on its behalf (devnet impersonation)` : '',
    funded.unassociated.length > 0 ? `not funded with ${funded.unassociated.join(', ')}: not associated` : '',
    funded.approved ? '' : 'not approved: the account onboards itself',
  ].filter((note) => note !== '');
  const tokens = funded.tokens.length > 0 ? funded.tokens.join(', ') : 'no token';
  return `${funded.amount} of ${tokens}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

async function connectDevnet(io: OperatorIo): Promise<DevnetFunding> {
  if (io.network !== 'devnet' || io.devnet === undefined) throw new UsageError('funding exists on the devnet only');
  try {
    return await io.devnet();
  } catch (error) {
    if (error instanceof DevnetNotRunningError) throw new UsageError(error.message);
    throw error;
  }
}

/** Funds a created account when the devnet chain runs; says so on stderr when it does not. */
export async function fundCreated(record: AccountKeyRecord, values: Values, io: OperatorIo): Promise<Funding | null> {
  const amount = fundingAmount(values);
  let issuer: DevnetFunding;
  try {
    issuer = await connectDevnet(io);
  } catch (error) {
    io.err(`not funded: ${error instanceof Error ? error.message : String(error)}; run account fund once the service runs`);
    return null;
  }
  await issuer.publishKey(record);
  return fund({ account: record.accountId, address: record.evmAddress }, amount, values, io, issuer);
}

async function fundAccount(values: Values, io: OperatorIo): Promise<Funding> {
  const account = normaliseAccountId(need(values, 'account'));
  if (account === undefined) throw new UsageError('--account must be a ledger id (0.0.X) or a 0x address');
  const amount = fundingAmount(values);
  let address = account;
  if (!account.startsWith('0x')) {
    const key = await io.store.accountKeys.get(account);
    if (key === undefined) throw new UsageError(`no devnet account ${account}`);
    address = key.evmAddress;
  }
  return fund({ account, address }, amount, values, io, await connectDevnet(io));
}

export const accountFundCommand: OperatorCommand = {
  group: 'account',
  actions: ['fund'],
  synopsis: ` --account <0.0.X|0x...> [--amount N] [--no-associate] [--no-approve]
                       devnet chain: gas money, the association with every token (sent as the
                       account through the devnet's impersonation), N whole units (default 1000) of
                       each, and an unlimited reactor allowance for each through Permit2
                       (--no-associate: only tokens the account associated itself are funded;
                       --no-approve: no allowance; the account onboards itself, e.g. dex-trade
                       onboard); needs the service running`,
  async run({ values, print }, io) {
    const funded = await fundAccount(values, io);
    print(funded, `funded ${funded.account} (${funded.address}) with ${describeFunding(funded)}`);
    return 0;
  },
};
