import {
  type Account,
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type HttpTransport,
  http,
  type PublicClient,
  type TestClient,
  type WalletClient,
} from 'viem';
import { TestToken } from './generated/artifacts.js';

/** viem clients of a devnet node: reads, anvil's test methods, and wallets for any local key. */
export interface DevnetClients {
  readonly chain: Chain;
  readonly public: PublicClient<HttpTransport, Chain>;
  readonly test: TestClient<'anvil', HttpTransport, Chain>;
  wallet(account: Account | Address): WalletClient<HttpTransport, Chain, Account>;
}

export function devnetChain(rpcUrl: string, chainId: number): Chain {
  return defineChain({
    id: chainId,
    name: 'devnet',
    nativeCurrency: { name: 'HBAR', symbol: 'HBAR', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export function devnetClients(rpcUrl: string, chainId: number): DevnetClients {
  const chain = devnetChain(rpcUrl, chainId);
  // One connection pool per client kind; batching lets concurrent reads share a request.
  const transport = http(rpcUrl, { batch: { wait: 0 }, retryCount: 0 });
  return {
    chain,
    // Blocks are mined as transactions arrive: poll receipts often.
    public: createPublicClient({ chain, transport, pollingInterval: 20 }),
    test: createTestClient({ chain, transport, mode: 'anvil' }),
    wallet: (account) => createWalletClient({ chain, transport, account }) as WalletClient<HttpTransport, Chain, Account>,
  };
}

/** Sets an account's native balance (gas money on the devnet). */
export async function fund(clients: DevnetClients, address: Address, wei = 10n ** 24n): Promise<void> {
  await clients.test.setBalance({ address, value: wei });
}

export interface TestTokenSpec {
  readonly address: Address;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
}

/**
 * Installs the devnet ERC-20 at a fixed address (a token's ledger address, as the ledger's own
 * tokens have), initialised by `sender` with `minter` (default: the sender) as the only minter.
 * Skips a token already there.
 */
export async function installTestToken(
  clients: DevnetClients,
  sender: WalletClient<HttpTransport, Chain, Account>,
  token: TestTokenSpec,
  minter: Address = sender.account.address,
): Promise<void> {
  const code = await clients.public.getCode({ address: token.address });
  if (code !== undefined && code !== '0x') return;
  await clients.test.setCode({ address: token.address, bytecode: TestToken.deployedBytecode });
  const hash = await sender.writeContract({
    address: token.address,
    abi: TestToken.abi,
    functionName: 'initialize',
    args: [token.name, token.symbol, token.decimals, minter],
  });
  await clients.public.waitForTransactionReceipt({ hash });
}
