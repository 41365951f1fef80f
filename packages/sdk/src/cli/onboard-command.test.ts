import { PrivateKey } from '@hashgraph/sdk';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { getOnboardingStatus } from '../actions/get-onboarding-status.js';
import { createClient } from '../client.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import { chainRpcUrl, fundWithoutApprovals } from '../test-support/onboarding.js';
import { unusedUrl } from '../test-support/server.js';
import { serveTraderCli } from '../test-support/trader-cli.js';

const served = serveTraderCli(async () => {}, { CHAIN: 'devnet' });

const STEPS = ['approveBaseTokenPermit2', 'approveQuoteTokenPermit2', 'approveBaseTokenReactor', 'approveQuoteTokenReactor'];

/** A fresh key funded on the devnet chain without approvals, and the environment that trades with it. */
async function fundedKey(): Promise<{ key: `0x${string}`; env: Record<string, string> }> {
  const key = generatePrivateKey();
  await fundWithoutApprovals(served.api.server, privateKeyToAccount(key).address);
  return { key, env: { DEX_PRIVATE_KEY: key, DEX_RPC_URL: chainRpcUrl(served.api.server) } };
}

describe('dex-trade onboard', () => {
  it('sends each pending step from the key, prints it as it is mined, and the account then trades', async () => {
    const { key, env } = await fundedKey();
    const refused = await served.cli.run(['order', 'place', '1', '--side', 'buy', '--price', '0.2', '--size', '10'], { env });
    expect(refused).toMatchObject({ code: 1, err: expect.stringContaining('INSUFFICIENT_FUNDS') });

    const run = await served.cli.run(['onboard', '1'], { env });
    expect(run).toMatchObject({ code: 0, err: '' });
    const lines = run.out.split('\n');
    expect(lines.filter((line) => line.includes('sending to')).map((line) => line.split(/\s+/)[0])).toEqual(STEPS);
    expect(lines.filter((line) => line.includes('mined in block')).map((line) => line.split(/\s+/)[0])).toEqual(STEPS);
    expect(lines[0]).toMatch(/^approveBaseTokenPermit2 {2}WHBAR {2}sending to 0x[0-9a-f]{40}$/);
    expect(lines.at(-1)).toBe('onboarded on book 1: 4 transaction(s) sent');

    const client = createClient({ baseUrl: served.api.url, signer: secp256k1Signer(key) });
    expect(await getOnboardingStatus(client, { orderbookId: 1 })).toMatchObject({ isComplete: true, pendingSteps: [] });
    const placed = await served.cli.run(['order', 'place', '1', '--side', 'buy', '--price', '0.2', '--size', '10'], { env });
    expect(placed).toMatchObject({ code: 0, out: expect.stringContaining('ACTIVE') });

    // Book 2 (SAUCE/WHBAR) shares WHBAR: only SAUCE's steps are left there.
    const second = await served.cli.run(['onboard', '2', '--json'], { env });
    expect(second.code).toBe(0);
    const answer = JSON.parse(second.out) as {
      sent: { step: string; hash: string }[];
      skipped: string[];
      status: { isComplete: boolean };
    };
    expect(answer.sent.map(({ step }) => step)).toEqual(['approveBaseTokenPermit2', 'approveBaseTokenReactor']);
    expect(answer.sent.every(({ hash }) => /^0x[0-9a-f]{64}$/.test(hash))).toBe(true);
    expect(answer.status.isComplete).toBe(true);
    expect(await served.cli.run(['onboard', '1'], { env })).toMatchObject({
      code: 0,
      out: 'onboarded on book 1 already: nothing to send',
    });
    expect(served.cli.written.join('\n')).not.toContain(key.slice(2));
  });

  it('needs the chain RPC and a secp256k1 key, and says so before sending anything', async () => {
    const { env } = await fundedKey();
    const withoutRpc = await served.cli.run(['onboard', '1'], { env: { ...env, DEX_RPC_URL: undefined } });
    expect(withoutRpc).toMatchObject({ code: 2, err: expect.stringContaining('set DEX_RPC_URL (or --rpc-url)') });
    const badRpc = await served.cli.run(['onboard', '1', '--rpc-url', 'ftp://node'], { env });
    expect(badRpc).toMatchObject({ code: 2, err: expect.stringContaining('--rpc-url must be an http(s) URL') });
    const ed25519 = PrivateKey.generateED25519();
    const ledger = await served.cli.run(['onboard', '1'], {
      env: { ...env, DEX_PRIVATE_KEY: ed25519.toStringRaw(), DEX_ACCOUNT: '0.0.7001', DEX_KEY_TYPE: 'ed25519' },
    });
    expect(ledger).toMatchObject({ code: 2, err: expect.stringContaining("sends them with the ledger's SDK") });
    expect(await served.cli.run(['onboard'], { env })).toMatchObject({ code: 2 });
  });

  it('reports a chain that does not answer without quoting its URL, and sends nothing', async () => {
    const { key, env } = await fundedKey();
    const nowhere = `${await unusedUrl()}/secret-path`;
    const run = await served.cli.run(['onboard', '1'], { env: { ...env, DEX_RPC_URL: nowhere } });
    expect(run.code).toBe(1);
    expect(run.err).toContain('The chain refused the approveBaseTokenPermit2 transaction');
    expect(run.err).not.toContain('secret-path');
    const client = createClient({ baseUrl: served.api.url, signer: secp256k1Signer(key) });
    expect((await getOnboardingStatus(client, { orderbookId: 1 })).pendingSteps).toEqual(STEPS);
  });
});
