import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AmmFactory,
  type DeploymentRecord,
  DevnetNode,
  devnetClients,
  Farm,
  fund,
  isDeployedCode,
  SauceStaking,
  TestToken,
} from '@dex/contracts';
import { type Address, getAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../adapters/sqlite/sqlite-store.js';
import { loadConfig } from '../../../composition/config.js';
import { operatorChain } from '../../../composition/operator-wiring.js';
import type { Store } from '../../../ports/store/ports.js';
import { ManualClock } from '../../../test-support/manual-clock.js';
import { operator } from '../../../test-support/operator-cli.js';
import { tempDataDir } from '../../../test-support/temp-data-dir.js';

/** The ledger's testnet chain id: the node is one the service did not start, as a relay is. */
const CHAIN_ID = 296;
const E6 = 10n ** 6n;
const E8 = 10n ** 8n;

let node: DevnetNode;
let clients: ReturnType<typeof devnetClients>;
let store: Store;
let data: ReturnType<typeof tempDataDir>;
const ownerKey = generatePrivateKey();
const owner = privateKeyToAccount(ownerKey).address;
const strangerKey = generatePrivateKey();
const stranger = privateKeyToAccount(strangerKey).address;
const tokens: Record<'SAUCE' | 'AAA' | 'BBB', Address> = { SAUCE: '0x', AAA: '0x', BBB: '0x' };

/** A TestToken of the test's own on the node, its minter the owner: a real chain's tokens are no one's to mint for us. */
async function deployToken(symbol: string, decimals: number): Promise<Address> {
  const wallet = clients.wallet(privateKeyToAccount(ownerKey));
  const deployed = await clients.public.waitForTransactionReceipt({
    hash: await wallet.deployContract({ abi: TestToken.abi, bytecode: TestToken.bytecode, args: [] }),
  });
  const address = getAddress(deployed.contractAddress as Address);
  const init = await wallet.writeContract({
    address,
    abi: TestToken.abi,
    functionName: 'initialize',
    args: [`Token ${symbol}`, symbol, decimals, owner],
  });
  await clients.public.waitForTransactionReceipt({ hash: init });
  return address;
}

const keyFile = (name: string, key: Hex) => {
  const file = join(data.dir, name);
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return file;
};

/** The operator CLI as `npm run cli` runs it with CHAIN=rpc and CHAIN_DEPLOYMENT naming `record`. */
function cliOn(record: string) {
  const config = loadConfig({
    DATA_DIR: data.dir,
    CHAIN: 'rpc',
    CHAIN_RPC_URL: node.rpcUrl,
    CHAIN_ID: String(CHAIN_ID),
    CHAIN_DEPLOYMENT: join(data.dir, record),
    OPERATOR_PRIVATE_KEY: ownerKey,
  });
  return operator(store, new ManualClock(), operatorChain(config));
}

const deploy = (out: string, key: Hex, ...more: string[]) =>
  operator(store)(
    ...['chain', 'deploy', '--rpc-url', node.rpcUrl, '--key-file', keyFile('deployer.key', key)],
    ...['--out', join(data.dir, out), '--with-amm', '--sauce', tokens.SAUCE, '--json', ...more],
  );
const recordOf = (out: string): DeploymentRecord => JSON.parse(out.split('\n').at(-1) as string) as DeploymentRecord;
const balance = (token: Address, account: Address) =>
  clients.public.readContract({ address: token, abi: TestToken.abi, functionName: 'balanceOf', args: [account] });
const nonce = (account: Address) => clients.public.getTransactionCount({ address: account });
/** The pool's own order (the lower address first) of the test's AAA and BBB, whose addresses come from a fresh key. */
const aaaFirst = () => BigInt(tokens.AAA) < BigInt(tokens.BBB);
const pairName = () => (aaaFirst() ? 'AAA/BBB' : 'BBB/AAA');

beforeAll(async () => {
  data = tempDataDir();
  node = await DevnetNode.start({ chainId: CHAIN_ID, stateFile: null });
  clients = devnetClients(node.rpcUrl, CHAIN_ID);
  // The test's faucet: owners on a real chain buy their gas.
  await fund(clients, owner);
  await fund(clients, stranger);
  tokens.SAUCE = await deployToken('SAUCE', 6);
  tokens.AAA = await deployToken('AAA', 8);
  tokens.BBB = await deployToken('BBB', 6);
  const minter = clients.wallet(privateKeyToAccount(ownerKey));
  for (const [token, amount] of [
    [tokens.AAA, 1_000n * E8],
    [tokens.BBB, 1_000n * E6],
  ] as const) {
    const hash = await minter.writeContract({ address: token, abi: TestToken.abi, functionName: 'mint', args: [owner, amount] });
    await clients.public.waitForTransactionReceipt({ hash });
  }
  store = await openSqliteStore(join(data.dir, 'devnet.sqlite'));
  const run = operator(store);
  for (const [id, symbol, decimals] of [
    ['0.0.7001', 'AAA', '8'],
    ['0.0.7002', 'BBB', '6'],
    ['0.0.7003', 'SAUCE', '6'],
  ] as const) {
    const evm = tokens[symbol];
    expect(
      (await run('token', 'add', '--id', id, '--symbol', symbol, '--name', symbol, '--decimals', decimals, '--evm', evm)).code,
    ).toBe(0);
  }
}, 60_000);

afterAll(async () => {
  await store?.close();
  await node?.stop();
  data?.remove();
});

describe('chain deploy --with-amm --sauce', () => {
  it("deploys the farm, owned by the deployer and made a SAUCE minter, and SAUCE staking, each of this build's code", async () => {
    const run = await deploy('deployment.json', ownerKey);
    expect(run).toMatchObject({ code: 0, err: '' });
    const { amm } = recordOf(run.out);
    const farm = amm?.farm as Address;
    expect(isDeployedCode(await clients.public.getCode({ address: farm }), Farm)).toBe(true);
    expect(isDeployedCode(await clients.public.getCode({ address: amm?.staking as Address }), SauceStaking)).toBe(true);
    expect(await clients.public.readContract({ address: farm, abi: Farm.abi, functionName: 'owner' })).toBe(owner);
    expect(await clients.public.readContract({ address: farm, abi: Farm.abi, functionName: 'sauce' })).toBe(tokens.SAUCE);
    const feeToSetter = await clients.public.readContract({
      address: amm?.factory as Address,
      abi: AmmFactory.abi,
      functionName: 'feeToSetter',
    });
    expect(feeToSetter).toBe(owner);
    expect(
      await clients.public.readContract({ address: tokens.SAUCE, abi: TestToken.abi, functionName: 'isMinter', args: [farm] }),
    ).toBe(true);
    expect(run.out).toMatch(/"contract":"farm as SAUCE minter","address":"0x[0-9a-fA-F]{40}","action":"set"/);
  });

  it('keeps the farm and staking when run again, sending nothing', async () => {
    const before = await nonce(owner);
    const again = await deploy('deployment.json', ownerKey);
    expect(again.code).toBe(0);
    expect(again.out).not.toMatch(/"action":"deployed"/);
    expect(again.out).toMatch(/"contract":"farm","action":"kept"/);
    expect(await nonce(owner)).toBe(before);
  });

  it("leaves the farm's minting pending, saying who must grant it, when the deployer is not SAUCE's minter", async () => {
    const run = await deploy('stranger.json', strangerKey);
    expect(run).toMatchObject({ code: 0, err: '' });
    const farm = recordOf(run.out).amm?.farm as Address;
    expect(run.out).toContain(
      `"action":"pending","detail":"the farm pays no SAUCE until SAUCE's minter ${owner} makes it a minter`,
    );
    expect(
      await clients.public.readContract({ address: tokens.SAUCE, abi: TestToken.abi, functionName: 'isMinter', args: [farm] }),
    ).toBe(false);
  });
});

describe('operator CLI pool and farm on CHAIN=rpc, with the owner key', () => {
  const owned = () => ['--key-file', keyFile('owner.key', ownerKey)];

  it("creates a pool and adds liquidity from the owner's own balances, minting nothing", async () => {
    const run = cliOn('deployment.json');
    expect((await run('pool', 'create', 'AAA', 'BBB', ...owned())).code).toBe(0);
    const [aaa, bbb] = [await balance(tokens.AAA, owner), await balance(tokens.BBB, owner)];
    const added = await run('pool', 'add-liquidity', 'AAA', 'BBB', '400', '100', ...owned(), '--json');
    expect(added).toMatchObject({ code: 0, err: '' });
    const result = JSON.parse(added.out) as { provider: string; amountA: string; amountB: string; liquidity: string };
    expect(result).toMatchObject({ provider: owner, amountA: String(400n * E8), amountB: String(100n * E6) });
    expect(await balance(tokens.AAA, owner)).toBe(aaa - 400n * E8);
    expect(await balance(tokens.BBB, owner)).toBe(bbb - 100n * E6);
    const listed = await run('pool', 'list');
    expect(listed).toMatchObject({ code: 0, err: '' });
    const reserves = aaaFirst() ? '400 AAA + 100 BBB' : '100 BBB + 400 AAA';
    const [id, name, pair, reservesText] = listed.out.split('\t');
    expect([id, name, reservesText]).toEqual(['1', pairName(), `reserves ${reserves}`]);
    expect(pair).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('adds a farm pool, sets its emissions, funds it from the owner and lists it', async () => {
    const run = cliOn('deployment.json');
    expect(await run('farm', 'add', '1', '3', ...owned())).toMatchObject({ code: 0, err: '' });
    expect(await run('farm', 'emissions', '0.5', '0.001', ...owned())).toMatchObject({ code: 0, err: '' });
    const before = await clients.public.getBalance({ address: owner });
    const funded = await run('farm', 'fund', '2.5', ...owned());
    expect(funded).toMatchObject({ code: 0, err: '', out: 'sent 2.5 HBAR to the farm; it holds 2.5 HBAR' });
    expect(await clients.public.getBalance({ address: owner })).toBeLessThan(before - 25n * 10n ** 17n);
    const listed = await run('farm', 'list');
    expect(listed.out).toMatch(/^emissions 0.5 SAUCE\/s, 0.001 HBAR\/s; balance 2.5 HBAR; 3 allocation points$/m);
    expect(listed.out).toMatch(new RegExp(`^0\tpool 1 ${pairName()} LP\t0x[0-9a-fA-F]{40}\talloc 3\tstaked 0$`, 'm'));
  });

  it('refuses a write without --key-file, naming it', async () => {
    const refused = await cliOn('deployment.json')('farm', 'add', '1', '1');
    expect(refused).toMatchObject({
      code: 2,
      err: "farm add needs --key-file FILE: the private key of the AMM's owner on this chain",
    });
  });

  it("refuses a key that is not the farm's owner before anything is sent", async () => {
    const before = await nonce(stranger);
    const other = ['--key-file', keyFile('stranger.key', strangerKey)];
    const refused = await cliOn('deployment.json')('farm', 'emissions', '1', '0', ...other);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(`setting the emissions: ${stranger} is not the farm's owner (${owner} is), so nothing was sent`);
    expect(await nonce(stranger)).toBe(before);
  });

  it('refuses liquidity --from another account: nothing can act for it on this chain', async () => {
    const refused = await cliOn('deployment.json')(
      'pool',
      'add-liquidity',
      'AAA',
      'BBB',
      '1',
      '1',
      '--from',
      stranger,
      ...owned(),
    );
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/^--from: nothing can act for another account .* \(no impersonation\)/);
  });

  it('reads a record written before the farm was deployed, and says it has no farm', async () => {
    const { amm, ...rest } = JSON.parse(readFileSync(join(data.dir, 'deployment.json'), 'utf8')) as DeploymentRecord;
    writeFileSync(join(data.dir, 'older.json'), JSON.stringify({ ...rest, amm: { factory: amm?.factory, router: amm?.router } }));
    const run = cliOn('older.json');
    expect((await run('pool', 'list')).out.startsWith(`1\t${pairName()}\t`)).toBe(true);
    expect(await run('farm', 'list')).toMatchObject({
      code: 1,
      err: 'this deployment has no farm: it was deployed without SAUCE',
    });
  });
});

describe('token add on CHAIN=rpc', () => {
  const add = (id: string, evm: string, decimals: string) =>
    cliOn('deployment.json')('token', 'add', '--id', id, '--symbol', 'T', '--name', 'T', '--decimals', decimals, '--evm', evm);

  it('lists a token whose own contract agrees on its decimals, and refuses one that does not, or an address with no token, before writing anything', async () => {
    const ccc = await deployToken('CCC', 8);
    const wrong = await add('0.0.7101', ccc, '6');
    expect(wrong).toMatchObject({ code: 2, err: expect.stringContaining("differs from the token's own decimals()") });
    expect(wrong.err).toContain(': 8');
    const none = await add('0.0.7102', privateKeyToAccount(generatePrivateKey()).address, '8');
    expect(none).toMatchObject({ code: 2, err: expect.stringContaining('has no token contract at') });
    expect((await store.tokens.list()).map((token) => token.id)).not.toEqual(expect.arrayContaining(['0.0.7101', '0.0.7102']));
    expect(await add('0.0.7103', ccc, '8')).toMatchObject({ code: 0, err: '' });
  });
});
