import {
  type Account,
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hex,
  type HttpTransport,
  type HttpTransportConfig,
  http,
  type PublicClient,
  type TestClient,
  type WalletClient,
} from 'viem';
import { DevnetAccountKeyService, Permit2, TestToken, WrappedNative } from './generated/artifacts.js';

/** The ledger's account-key system contract; on the devnet, DevnetAccountKeyService. */
export const ACCOUNT_KEY_SERVICE_ADDRESS: Address = '0x000000000000000000000000000000000000016a';

export type DevnetWallet = WalletClient<HttpTransport, Chain, Account>;

/** viem clients of a devnet node: reads, anvil's test methods, and wallets for any local key. */
export interface DevnetClients {
  readonly chain: Chain;
  readonly public: PublicClient<HttpTransport, Chain>;
  readonly test: TestClient<'anvil', HttpTransport, Chain>;
  wallet(account: Account | Address): DevnetWallet;
}

export function devnetChain(rpcUrl: string, chainId: number): Chain {
  return defineChain({
    id: chainId,
    name: 'devnet',
    nativeCurrency: { name: 'HBAR', symbol: 'HBAR', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/**
 * Clients of a devnet node. `fetchFn` is what sends each JSON-RPC request (Node's fetch when not
 * given): the service passes one that costs its request thread less.
 */
export function devnetClients(rpcUrl: string, chainId: number, fetchFn?: HttpTransportConfig['fetchFn']): DevnetClients {
  const chain = devnetChain(rpcUrl, chainId);
  // One connection pool per client kind; batching lets concurrent reads share a request.
  const transport = http(rpcUrl, { batch: { wait: 0 }, retryCount: 0, fetchFn });
  return {
    chain,
    // Blocks are mined as transactions arrive: poll receipts often.
    public: createPublicClient({ chain, transport, pollingInterval: 20 }),
    test: createTestClient({ chain, transport, mode: 'anvil' }),
    wallet: (account) => createWalletClient({ chain, transport, account }) as DevnetWallet,
  };
}

/** Gas for a devnet write: the node's estimate plus half again. */
export function gasWithMargin(estimate: bigint): bigint {
  return estimate + estimate / 2n;
}

/**
 * What one farm pool's update can write beyond an estimate made a second before the block that
 * mines the call: an estimate in the second of the pool's last update sees no accrual, the block
 * after it does (both accumulators written from zero, 2 x 20,000, the pool's time, cold reads),
 * which half again of a small estimate (setEmissions over three pools: 80,000) does not cover.
 */
export const FARM_POOL_ACCRUAL_GAS = 60_000n;

/** Gas for a farm write that updates `pools` pools (all of them for add, set and setEmissions; one to stake or unstake). */
export function farmWriteGas(estimate: bigint, pools: bigint): bigint {
  return gasWithMargin(estimate) + pools * FARM_POOL_ACCRUAL_GAS;
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
 * A token already there keeps its storage (name, balances, minter); its code is replaced when it
 * differs from this build's, so a devnet made by an older TestToken gains what was added since
 * (new variables are only ever appended, so the old slots keep their meaning).
 */
export async function installTestToken(
  clients: DevnetClients,
  sender: DevnetWallet,
  token: TestTokenSpec,
  minter: Address = sender.account.address,
): Promise<void> {
  await installTokenCode(clients, sender, token, TestToken.deployedBytecode, minter);
}

/** Native units (wei) in one unit of the wrapped native token (tinybar), as the ledger's relay converts. */
export const WEI_PER_TINYBAR = 10n ** 10n;

/**
 * Installs the devnet's wrapped native coin (WrappedNative, a TestToken with deposit and withdraw)
 * at a token's ledger address, as its own minter: only deposits create it. A token there before
 * (the devnet's WHBAR of an earlier version, which the issuer minted) keeps its balances and gains
 * deposit and withdraw; the native coin it holds is topped up to back its supply, so every unit
 * unwraps.
 */
export async function installWrappedNative(clients: DevnetClients, sender: DevnetWallet, token: TestTokenSpec): Promise<void> {
  await installTokenCode(clients, sender, token, WrappedNative.deployedBytecode, token.address);
  const supply = await clients.public.readContract({
    address: token.address,
    abi: WrappedNative.abi,
    functionName: 'totalSupply',
  });
  const backing = supply * WEI_PER_TINYBAR;
  if ((await clients.public.getBalance({ address: token.address })) < backing) {
    await clients.test.setBalance({ address: token.address, value: backing });
  }
}

/** Whether the code at `address` is this build's wrapped native coin. */
export async function isWrappedNative(clients: DevnetClients, address: Address): Promise<boolean> {
  const code = await clients.public.getCode({ address });
  return code?.toLowerCase() === WrappedNative.deployedBytecode.toLowerCase();
}

/** Installs `code` (a TestToken) at the token's address unless it is there, and initialises it once. */
async function installTokenCode(
  clients: DevnetClients,
  sender: DevnetWallet,
  token: TestTokenSpec,
  code: Hex,
  minter: Address,
): Promise<void> {
  const current = await clients.public.getCode({ address: token.address });
  if (current?.toLowerCase() === code.toLowerCase()) return;
  await clients.test.setCode({ address: token.address, bytecode: code });
  // Initialised before (old code replaced): left as it was.
  const named = await clients.public.readContract({ address: token.address, abi: TestToken.abi, functionName: 'minter' });
  if (BigInt(named) !== 0n) return;
  const hash = await sender.writeContract({
    address: token.address,
    abi: TestToken.abi,
    functionName: 'initialize',
    args: [token.name, token.symbol, token.decimals, minter],
  });
  await confirm(clients, hash, `initialising the token at ${token.address}`);
}

/** Whether `account` may receive a devnet token: HIP-719's `isAssociated()`, asked as the account. */
export function isAssociated(clients: DevnetClients, token: Address, account: Address): Promise<boolean> {
  return clients.public.readContract({ account, address: token, abi: TestToken.abi, functionName: 'isAssociated' });
}

/**
 * Associates `wallet`'s account with a devnet token, as the ledger asks before the account may
 * receive it (HIP-719's `associate()` on the token), unless it is associated already. The wallet
 * may be an impersonated account (the caller impersonates it). True when it sent the association.
 */
export async function associateToken(clients: DevnetClients, wallet: DevnetWallet, token: Address): Promise<boolean> {
  if (await isAssociated(clients, token, wallet.account.address)) return false;
  const hash = await wallet.writeContract({ address: token, abi: TestToken.abi, functionName: 'associate' });
  await confirm(clients, hash, `associating ${wallet.account.address} with the token at ${token}`);
  return true;
}

/** Where Permit2 lives on every chain that has the canonical deployment; the devnet installs ours there. */
export const PERMIT2_ADDRESS = '0x000000000022D473030F116dDEE9F6B43aC78BA3' as Address;

/** Installs our Permit2 at the canonical address (it has no constructor); skips when code is there. */
export async function installPermit2(clients: DevnetClients): Promise<Address> {
  if (!(await hasCode(clients, PERMIT2_ADDRESS))) {
    await clients.test.setCode({ address: PERMIT2_ADDRESS, bytecode: Permit2.deployedBytecode });
  }
  return PERMIT2_ADDRESS;
}

/**
 * Installs DevnetAccountKeyService at 0x16a with `registrar` as the only one who sets keys.
 * Skips when the contract is already there.
 */
export async function installAccountKeyService(clients: DevnetClients, registrar: DevnetWallet): Promise<void> {
  if (await hasCode(clients, ACCOUNT_KEY_SERVICE_ADDRESS)) return;
  await clients.test.setCode({ address: ACCOUNT_KEY_SERVICE_ADDRESS, bytecode: DevnetAccountKeyService.deployedBytecode });
  const hash = await registrar.writeContract({
    address: ACCOUNT_KEY_SERVICE_ADDRESS,
    abi: DevnetAccountKeyService.abi,
    functionName: 'initialize',
    args: [registrar.account.address],
  });
  await confirm(clients, hash, 'initialising the account-key service');
}

/** Registers `account`'s Ed25519 public key (32 bytes, hex) at 0x16a; the zero key removes it. */
export async function registerEd25519Key(
  clients: DevnetClients,
  registrar: DevnetWallet,
  account: Address,
  publicKeyHex: Hex,
): Promise<void> {
  const hash = await registrar.writeContract({
    address: ACCOUNT_KEY_SERVICE_ADDRESS,
    abi: DevnetAccountKeyService.abi,
    functionName: 'setEd25519Key',
    args: [account, publicKeyHex],
  });
  await confirm(clients, hash, `registering the Ed25519 key of ${account}`);
}

async function hasCode(clients: DevnetClients, address: Address): Promise<boolean> {
  const code = await clients.public.getCode({ address });
  return code !== undefined && code !== '0x';
}

/** Waits for a transaction's receipt and throws when it reverted. */
async function confirm(clients: DevnetClients, hash: Hex, what: string): Promise<void> {
  const receipt = await clients.public.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`${what} reverted (transaction ${hash})`);
}
