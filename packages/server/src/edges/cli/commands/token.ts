import { assertTokenDecimals, isEvmAddress, isLedgerId, longZeroAddress } from '@dex/core';
import type { TokenRecord } from '../../../domain/markets/market-records.js';
import { DevnetNotRunningError } from '../../../ports/devnet-funding.js';
import { listCommand, type OperatorCommand } from '../operator-command.js';
import type { OperatorIo } from '../operator-io.js';
import { need, optional, UsageError, type Values, wholeNumber } from '../operator-options.js';
import { listingChange } from './token-listing.js';

const SYMBOL = /^[A-Za-z0-9.+-]{1,16}$/;

/**
 * On a chain the service did not start, the token's own contract must be there and agree on its
 * decimals: a wrong count would misstate every amount of the token by powers of ten.
 */
async function checkOnChain(io: OperatorIo, evm: string, decimals: number): Promise<void> {
  if (io.chainToken === undefined || BigInt(evm) === 0n) return;
  const facts = await io.chainToken(evm);
  if (facts === null) {
    throw new UsageError(`the settlement chain has no token contract at ${evm} (no code, or no decimals()): check --evm or --id`);
  }
  if (facts.decimals !== decimals) {
    throw new UsageError(`--decimals ${decimals} differs from the token's own decimals() at ${evm}: ${facts.decimals}`);
  }
}

async function addToken(values: Values, io: OperatorIo): Promise<TokenRecord> {
  const id = need(values, 'id');
  if (!isLedgerId(id)) throw new UsageError('--id must be a ledger id such as 0.0.123456');
  const symbol = need(values, 'symbol');
  if (!SYMBOL.test(symbol)) throw new UsageError('--symbol must be 1 to 16 letters, digits or .+-');
  const name = need(values, 'name');
  if (name.length > 64) throw new UsageError('--name must be at most 64 characters');
  const decimals = wholeNumber(need(values, 'decimals'), 'decimals', 36);
  assertTokenDecimals(decimals);
  const evm = optional(values, 'evm') ?? longZeroAddress(id);
  if (!isEvmAddress(evm)) throw new UsageError('--evm must be a 0x-prefixed 20-byte address');
  await checkOnChain(io, evm, decimals);
  const listing = listingChange(values);
  return io.markets.addToken({
    id,
    evmAddress: evm.toLowerCase(),
    symbol,
    name,
    decimals,
    icon: listing.icon ?? null,
    description: listing.description ?? null,
    website: listing.website ?? null,
    sentinelReport: listing.sentinelReport ?? null,
    twitterHandle: listing.twitterHandle ?? null,
    circulatingSupply: listing.circulatingSupply ?? null,
    dueDiligenceComplete: listing.dueDiligenceComplete ?? false,
    isFeeOnTransfer: listing.isFeeOnTransfer ?? false,
    isKnown: listing.isKnown ?? false,
    isDefault: listing.isDefault ?? false,
  });
}

/**
 * On the devnet, the running chain gets the token's contract now rather than at the service's next
 * start; says where it stands.
 */
async function installOnDevnet(io: OperatorIo, token: TokenRecord): Promise<string> {
  if (io.devnet === undefined) return '';
  try {
    await (await io.devnet()).installToken(token);
    return '\ninstalled on the running devnet chain';
  } catch (error) {
    if (!(error instanceof DevnetNotRunningError)) throw error;
    return `\nnot on the devnet chain yet (${error.message}): the service installs it when it starts`;
  }
}

export const tokenAddCommand: OperatorCommand = {
  group: 'token',
  actions: ['add'],
  synopsis: ` --id 0.0.X --symbol SYM --name NAME --decimals N [--evm 0x...] [listing options]
                       on the devnet, the running chain gets the token's contract at once`,
  async run({ values, print }, io) {
    const token = await addToken(values, io);
    const installed = await installOnDevnet(io, token);
    print(token, `added token ${token.id} ${token.symbol} (${token.decimals} decimals) at ${token.evmAddress}${installed}`);
    return 0;
  },
};

export const tokenUpdateCommand: OperatorCommand = {
  group: 'token',
  actions: ['update'],
  synopsis: ` --id 0.0.X [listing options]     (an empty value clears a text field)
               listing options: [--icon URL] [--description TEXT] [--website URL]
               [--sentinel-report URL] [--twitter-handle NAME] [--circulating-supply RAW]
               [--[no-]due-diligence] [--[no-]fee-on-transfer] [--[no-]known] [--[no-]default]
                       --known and --default put the token on the data API's curated lists`,
  async run({ values, print }, io) {
    const id = need(values, 'id');
    const change = listingChange(values);
    if (Object.keys(change).length === 0) throw new UsageError('token update needs at least one listing option');
    const token = await io.markets.updateToken(id, change);
    if (token === undefined) throw new UsageError(`no token ${id}`);
    print(token, `updated token ${token.id} ${token.symbol}`);
    return 0;
  },
};

export const tokenListCommand = listCommand(
  'token',
  (io) => io.markets.tokens(),
  (token) => `${token.id}\t${token.symbol}\t${token.decimals}\t${token.evmAddress}\t${token.name}`,
);
