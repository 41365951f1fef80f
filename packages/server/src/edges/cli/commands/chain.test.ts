import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  AmmFactory,
  type DeploymentRecord,
  DevnetNode,
  devnetClients,
  fund,
  isDeployedCode,
  PartialFillLimitOrderReactor,
  Permit2,
} from '@dex/contracts';
import { type Address, getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFreshStore } from '../../../test-support/operator-cli.js';

/** The ledger's testnet chain id: the node is one the service did not start, as a relay is. */
const CHAIN_ID = 296;

let node: DevnetNode;
let clients: ReturnType<typeof devnetClients>;
const deployerKey = generatePrivateKey();
const deployer = privateKeyToAccount(deployerKey).address;

beforeAll(async () => {
  node = await DevnetNode.start({ chainId: CHAIN_ID, stateFile: null });
  clients = devnetClients(node.rpcUrl, CHAIN_ID);
  await fund(clients, deployer);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('operator CLI chain deploy', () => {
  const cli = withFreshStore();
  const keyFile = () => {
    const file = join(cli.dir, 'deployer.key');
    writeFileSync(file, `${deployerKey}\n`, { mode: 0o600 });
    return file;
  };
  /** `chain deploy` on the test's node, recording to `out` in the test's folder. */
  const deployTo = (out: string, ...more: string[]) =>
    cli.run('chain', 'deploy', '--rpc-url', node.rpcUrl, '--key-file', keyFile(), '--out', join(cli.dir, out), ...more);
  const deploy = (...more: string[]) => deployTo('deployment.json', '--json', ...more);
  const recordOf = (out: string): DeploymentRecord => JSON.parse(out.split('\n').at(-1) as string) as DeploymentRecord;
  const read = (address: Address, functionName: 'owner' | 'operator' | 'feeRecipient' | 'pairFactory' | 'permit2') =>
    clients.public.readContract({ address, abi: PartialFillLimitOrderReactor.abi, functionName });

  it('takes an empty node to Permit2, the reactor and the AMM, each checked against this build, and records them', async () => {
    const feeRecipient = privateKeyToAccount(generatePrivateKey()).address;
    const run = await deploy('--with-amm', '--fee-recipient', feeRecipient, '--change-delay', '3600');
    expect(run).toMatchObject({ code: 0, err: '' });
    const record = recordOf(run.out);
    expect(record).toMatchObject({ format: 'dex-deployment/1', chainId: CHAIN_ID, permit2: { deployedHere: true } });
    expect(isDeployedCode(await clients.public.getCode({ address: record.permit2.address }), Permit2)).toBe(true);
    const reactor = record.reactor.address;
    expect(isDeployedCode(await clients.public.getCode({ address: reactor }), PartialFillLimitOrderReactor)).toBe(true);
    expect(await read(reactor, 'owner')).toBe(deployer);
    expect(await read(reactor, 'operator')).toBe(deployer);
    expect(await read(reactor, 'feeRecipient')).toBe(getAddress(feeRecipient));
    expect(await read(reactor, 'permit2')).toBe(record.permit2.address);
    expect(await read(reactor, 'pairFactory')).toBe(record.amm?.factory);
    expect(isDeployedCode(await clients.public.getCode({ address: record.amm?.factory as Address }), AmmFactory)).toBe(true);
    expect(record.reactor).toMatchObject({
      changeDelaySeconds: '3600',
      domain: { name: 'PartialFillLimitOrderReactor', version: '1' },
    });
  });

  it('sends nothing when run again: everything the record names is kept', async () => {
    const first = recordOf((await deploy('--with-amm')).out);
    const nonce = await clients.public.getTransactionCount({ address: deployer });
    const again = await deploy('--with-amm');
    expect(again.code).toBe(0);
    expect(recordOf(again.out)).toEqual(first);
    expect(await clients.public.getTransactionCount({ address: deployer })).toBe(nonce);
    expect(again.out).not.toMatch(/"action":"deployed"/);
  });

  it("uses the chain's own Permit2 when given one, and refuses an address that is none", async () => {
    const own = recordOf((await deploy()).out).permit2.address;
    const second = await deployTo('other.json', '--permit2', own, '--json');
    const record = recordOf(second.out);
    expect(record.permit2).toEqual({ address: own, deployedHere: false });
    expect(await read(record.reactor.address, 'permit2')).toBe(own);
    const refused = await deployTo('third.json', '--permit2', deployer);
    expect(refused).toMatchObject({ code: 1, err: `--permit2 ${deployer} has no code on this chain` });
  });

  it('proposes an operator change on a kept reactor, which takes over only by its own acceptance', async () => {
    const record = recordOf((await deploy()).out);
    const next = privateKeyToAccount(generatePrivateKey()).address;
    const run = await deploy('--operator', next);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/"action":"proposed","address":"[^"]+"/);
    expect(await read(record.reactor.address, 'operator')).toBe(deployer);
    const [holder] = await clients.public.readContract({
      address: record.reactor.address,
      abi: PartialFillLimitOrderReactor.abi,
      functionName: 'pendingChange',
      args: [1],
    });
    expect(holder).toBe(getAddress(next));
    expect((await deploy('--operator', next)).out).toMatch(/"action":"pending"/);
  });

  describe('refuses', () => {
    let html: Server;
    let htmlUrl: string;
    beforeAll(async () => {
      html = createServer((_request, response) => response.end('<html>not a node</html>'));
      await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
      htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => html.close(() => resolve())));

    it('a node of another chain than --chain-id, and a URL that is no JSON-RPC node', async () => {
      expect(await deploy('--chain-id', '295')).toMatchObject({
        code: 1,
        err: `--rpc-url ${node.rpcUrl} serves chain 296, not --chain-id 295`,
      });
      const other = await cli.run('chain', 'deploy', '--rpc-url', htmlUrl, '--key-file', keyFile());
      expect(other).toMatchObject({ code: 1, err: `--rpc-url ${htmlUrl} does not answer as a JSON-RPC node (eth_chainId)` });
    });

    it('a key file that holds no key, without echoing it', async () => {
      const file = join(cli.dir, 'bad.key');
      writeFileSync(file, 'not-a-key-but-a-secret');
      const run = await cli.run('chain', 'deploy', '--rpc-url', node.rpcUrl, '--key-file', file);
      expect(run).toMatchObject({ code: 2, err: `--key-file ${file} must hold a private key: 0x and 64 hex digits` });
      expect(run.err).not.toContain('secret');
    });

    it('a record of another chain', async () => {
      const out = join(cli.dir, 'deployment.json');
      writeFileSync(out, JSON.stringify({ ...recordOf((await deploy()).out), chainId: 295 }));
      expect(await deploy()).toMatchObject({ code: 1, err: 'the deployment record is of chain 295, the node serves chain 296' });
    });
  });
});
