import type { Funding } from '../../../application/accounts/devnet-accounts.js';
import { normaliseAccountId } from '../../../application/auth/trading-identity.js';
import type { AccountKeyRecord } from '../../../domain/accounts/account-keys.js';
import { type DevnetFunding, DevnetNotRunningError } from '../../../ports/devnet-funding.js';
import type { OperatorCommand } from '../operator-command.js';
import type { OperatorIo } from '../operator-io.js';
import { need, UsageError, type Values, wholeNumber } from '../operator-options.js';

const DEFAULT_FUNDING = 1_000;

/** Whole units of each token to fund with: --amount, else 1,000. */
function fundingAmount(values: Values): number {
  return values.amount === undefined ? DEFAULT_FUNDING : wholeNumber(values.amount, 'amount', 1_000_000_000);
}

/**
 * What the faucet does besides minting: unless `--no-associate`, it associates the account with
 * every registry token on its behalf (the devnet's impersonation); unless `--no-approve`, it
 * approves the reactor through Permit2 for it (an Ed25519 account cannot send those transactions
 * here itself).
 */
function fundingOptions(values: Values) {
  return { approve: values.approve !== false, associate: values.associate !== false };
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
  return io.accounts.fund(issuer, { account: record.accountId, address: record.evmAddress }, amount, fundingOptions(values));
}

async function fundAccount(values: Values, io: OperatorIo): Promise<Funding> {
  const account = normaliseAccountId(need(values, 'account'));
  if (account === undefined) throw new UsageError('--account must be a ledger id (0.0.X) or a 0x address');
  const amount = fundingAmount(values);
  let address = account;
  if (!account.startsWith('0x')) {
    const registered = await io.accounts.evmAddressOf(account);
    if (registered === undefined) throw new UsageError(`no devnet account ${account}`);
    address = registered;
  }
  return io.accounts.fund(await connectDevnet(io), { account, address }, amount, fundingOptions(values));
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
