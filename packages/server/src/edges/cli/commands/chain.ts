import { existsSync, readFileSync } from 'node:fs';
import {
  DeploymentError,
  type DeploymentRecord,
  type DeploymentStep,
  deployExchange,
  parseDeploymentRecord,
  writeFileAtomic,
} from '@dex/contracts';
import { type Address, createPublicClient, createWalletClient, defineChain, getAddress, http, isAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { OperatorCommand } from '../operator-command.js';
import { need, optional, UsageError, type Values, wholeNumber } from '../operator-options.js';
import { privateKeyFile } from './key-file.js';

/** Two days: a stolen owner key shows its hand (a proposed change) long before it takes over. */
const DEFAULT_CHANGE_DELAY_SECONDS = 172_800;
const MAX_CHANGE_DELAY_SECONDS = 31_536_000;

function addressOption(values: Values, name: 'permit2' | 'operator' | 'fee-recipient' | 'sauce'): Address | undefined {
  const given = optional(values, name);
  if (given === null) return undefined;
  if (!isAddress(given, { strict: false })) throw new UsageError(`--${name} must be a 0x-prefixed 20-byte address`);
  return getAddress(given);
}

function rpcUrl(values: Values): string {
  const url = need(values, 'rpc-url');
  if (!/^https?:\/\/\S+$/.test(url)) throw new UsageError('--rpc-url must be an http(s) URL of a JSON-RPC node');
  return url;
}

/** The record an earlier run wrote to the same file: what this run keeps. */
function previousRecord(file: string): DeploymentRecord | null {
  return existsSync(file) ? parseDeploymentRecord(readFileSync(file, 'utf8'), file) : null;
}

function describeStep(step: DeploymentStep): string {
  const parts = [`${step.action} ${step.contract} ${step.address}`];
  if (step.transaction !== undefined) parts.push(`(transaction ${step.transaction})`);
  if (step.detail !== undefined) parts.push(`: ${step.detail}`);
  return parts.join(' ');
}

export const chainDeployCommand: OperatorCommand = {
  group: 'chain',
  actions: ['deploy'],
  // It works on the chain and the record file only: a first deployment comes before any store.
  store: 'none',
  synopsis: ` --rpc-url URL --key-file FILE [--permit2 ADDRESS] [--with-amm [--sauce ADDRESS]]
           [--out deployment.json] [--operator ADDRESS] [--fee-recipient ADDRESS] [--change-delay SECONDS] [--confirmations N]
           [--chain-id N] [--domain-name NAME] [--domain-version V]
           deploys what the service needs on a JSON-RPC chain, keeping what --out already names;
           with --sauce also the AMM's farm (minting that token as its reward) and SAUCE staking`,
  async run({ values, print }, io) {
    const url = rpcUrl(values);
    const account = privateKeyToAccount(privateKeyFile(need(values, 'key-file')));
    const sauce = addressOption(values, 'sauce');
    if (sauce !== undefined && values['with-amm'] !== true) throw new UsageError('--sauce is for the AMM: give --with-amm too');
    const out = optional(values, 'out') ?? 'deployment.json';
    const transport = http(url, { retryCount: 5, timeout: 30_000 });
    const probe = createPublicClient({ transport });
    let chainId: number;
    try {
      chainId = await probe.getChainId();
    } catch (error) {
      throw new DeploymentError(`--rpc-url ${url} does not answer as a JSON-RPC node (eth_chainId)`, { cause: error });
    }
    const expected = optional(values, 'chain-id');
    if (expected !== null && Number(expected) !== chainId) {
      throw new DeploymentError(`--rpc-url ${url} serves chain ${chainId}, not --chain-id ${expected}`);
    }
    const chain = defineChain({
      id: chainId,
      name: `chain ${chainId}`,
      nativeCurrency: { name: 'HBAR', symbol: 'HBAR', decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    });
    const record = await deployExchange({
      public: createPublicClient({ chain, transport, pollingInterval: 500 }),
      deployer: createWalletClient({ chain, transport, account }),
      permit2: addressOption(values, 'permit2'),
      domain: {
        name: optional(values, 'domain-name') ?? 'PartialFillLimitOrderReactor',
        version: optional(values, 'domain-version') ?? '1',
      },
      changeDelaySeconds: BigInt(
        wholeNumber(
          optional(values, 'change-delay') ?? String(DEFAULT_CHANGE_DELAY_SECONDS),
          'change-delay',
          MAX_CHANGE_DELAY_SECONDS,
        ),
      ),
      operator: addressOption(values, 'operator') ?? account.address,
      feeRecipient: addressOption(values, 'fee-recipient') ?? account.address,
      withAmm: values['with-amm'] === true,
      sauce,
      confirmations: Math.max(1, wholeNumber(optional(values, 'confirmations') ?? '1', 'confirmations', 64)),
      previous: previousRecord(out),
      report: (step) => io.out(values.json ? JSON.stringify(step) : describeStep(step)),
    });
    writeFileAtomic(out, `${JSON.stringify(record, null, 2)}\n`);
    print(record, `wrote ${out}: reactor ${record.reactor.address} on chain ${record.chainId}`);
    return 0;
  },
};
