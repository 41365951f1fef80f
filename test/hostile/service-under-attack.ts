/** The service in a process of its own for the hostile-input suite, with a real login and a real data API key. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { builtEntry, type ServiceProcess, startServiceProcess } from '../../packages/server/src/test-support/service-process.js';
import type { Credentials } from './hostile-requests.js';
import { OrderSession, sellRequest } from './real-orders.js';

const run = promisify(execFile);
const MAIN = builtEntry(new URL('../../packages/server/src/composition/main.ts', import.meta.url));
const OPERATOR_MAIN = fileURLToPath(
  builtEntry(new URL('../../packages/server/src/composition/operator-main.ts', import.meta.url)),
);

export interface ServiceUnderAttack {
  readonly process: ServiceProcess;
  readonly url: string;
  readonly credentials: Credentials;
  /**
   * A second logged-in wallet placing real orders for the stream tests. The generated requests
   * never use it, so they cannot raise its nonce floor or cancel its orders first.
   */
  readonly orders: OrderSession;
  /** Real, valid bodies by `METHOD /path`, for the generators to mutate. */
  readonly examples: Readonly<Record<string, unknown>>;
}

async function postJson(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${new URL(url).pathname} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** A fresh secp256k1 wallet logs in with the challenge flow over HTTP: its access token. */
async function login(url: string, account: PrivateKeyAccount): Promise<string> {
  const accountId = account.address.toLowerCase();
  const { message } = (await postJson(`${url}/auth/challenge`, { accountId })) as { message: string };
  const { token } = (await postJson(`${url}/auth/verify`, { accountId, signature: await account.signMessage({ message }) })) as {
    token: string;
  };
  return token;
}

/** A data API key from the operator CLI, run as an operator runs it beside the service, on its DATA_DIR. */
async function issueApiKey(dataDir: string): Promise<string> {
  const args = ['apikey', 'issue', '--name', 'hostile suite', '--quota', '10000000', '--overage', '--json'];
  const { stdout } = await run(process.execPath, [OPERATOR_MAIN, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  });
  return (JSON.parse(stdout) as { key: string }).key;
}

/**
 * V8 sizes its heap by the machine's memory and may leave a burst's garbage uncollected for long,
 * which reads as growth in resident memory. A cap makes it collect; a real leak then ends the
 * process (out of memory) or still shows as growth.
 */
const HEAP_CAP_FLAGS = ['--max-old-space-size=256', '--max-semi-space-size=8'];

export async function startServiceUnderAttack(env: Record<string, string>): Promise<ServiceUnderAttack> {
  const service = startServiceProcess(MAIN, env, HEAP_CAP_FLAGS);
  const url = await service.url;
  const account = privateKeyToAccount(generatePrivateKey());
  const maker = privateKeyToAccount(generatePrivateKey());
  const [jwt, makerJwt, apiKey] = await Promise.all([login(url, account), login(url, maker), issueApiKey(service.dataDir)]);
  const prober = new OrderSession(url, jwt, account);
  const orderId = await prober.place(0);
  const examples = {
    'POST /auth/challenge': { accountId: account.address.toLowerCase() },
    'POST /orders/build': { orderRequests: [sellRequest(1)] },
    'POST /orders/save': { items: [await prober.signedItem(2)] },
    'POST /cancel': { orderIds: [orderId] },
    'POST /cancel/all': { nonceFloor: '0' },
    'POST /cancel/after': { timeoutSeconds: 0 },
  };
  const orders = new OrderSession(url, makerJwt, maker);
  return { process: service, url, credentials: { jwt, apiKey }, orders, examples };
}

/** Resident memory of a process in MiB, from /proc/<pid>/status. */
export function residentMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((text) => text.startsWith('VmRSS:'));
  const kib = Number(/(\d+)/.exec(line ?? '')?.[1]);
  if (!Number.isFinite(kib)) throw new Error(`no VmRSS for process ${pid}`);
  return kib / 1024;
}
