import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type Hex, keccak256, parseTransaction } from 'viem';

/**
 * What a JSON-RPC relay under stress does (the ledger's relay among them), one kind at a time or
 * several at once. `every`: the fault hits one request in that many (1: all).
 */
export type RelayFault =
  | { readonly kind: 'status'; readonly status: 429 | 502 | 503; readonly every: number; readonly retryAfterSeconds?: number }
  /** Holds the request unanswered until the client gives up. */
  | { readonly kind: 'hang'; readonly every: number }
  /** Refuses `eth_getLogs` over more than `maxBlocks` blocks, as the ledger's relay does. */
  | { readonly kind: 'log-range'; readonly maxBlocks: bigint }
  /** Answers no receipt for a transaction until `delayMs` after it was sent. */
  | { readonly kind: 'late-receipts'; readonly delayMs: number }
  /** Accepts the next `count` transactions (answers their hash) and never passes them on. */
  | { readonly kind: 'drop-transactions'; count: number }
  /** Passes the next `count` transactions on, then answers "nonce too low", as a resend after a restart meets. */
  | { readonly kind: 'nonce-too-low'; count: number };

interface Call {
  readonly jsonrpc: '2.0';
  readonly id: number | string;
  readonly method: string;
  readonly params?: unknown[];
}

type Answer = { jsonrpc: '2.0'; id: Call['id'] } & ({ result: unknown } | { error: { code: number; message: string } });

export interface FaultRelay {
  readonly url: string;
  /** The faults from now on (replacing the ones before). */
  set(faults: readonly RelayFault[]): void;
  /** How many requests each kind of fault hit so far. */
  readonly hits: Readonly<Record<RelayFault['kind'], number>>;
  /** Transactions the relay answered for and never passed on. */
  readonly dropped: readonly Hex[];
  close(): Promise<void>;
}

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

/** A loopback JSON-RPC proxy in front of `upstream` that misbehaves as told. */
export async function startFaultRelay(upstream: () => string): Promise<FaultRelay> {
  let faults: readonly RelayFault[] = [];
  let requests = 0;
  const hits: Record<RelayFault['kind'], number> = {
    status: 0,
    hang: 0,
    'log-range': 0,
    'late-receipts': 0,
    'drop-transactions': 0,
    'nonce-too-low': 0,
  };
  const sentAt = new Map<string, number>();
  const dropped: Hex[] = [];
  const sockets = new Set<Socket>();
  const find = <K extends RelayFault['kind']>(kind: K) =>
    faults.find((fault): fault is Extract<RelayFault, { kind: K }> => fault.kind === kind);

  const forward = async (calls: readonly Call[]): Promise<Answer[]> => {
    if (calls.length === 0) return [];
    const reply = await fetch(upstream(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(calls),
    });
    return (await reply.json()) as Answer[];
  };

  const head = async (): Promise<bigint> => {
    const [answer] = await forward([{ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber' }]);
    return BigInt((answer as { result: Hex }).result);
  };

  /** The fault's own answer to one call, or undefined to pass it on. */
  const intercept = async (call: Call): Promise<Answer | undefined> => {
    const error = (message: string): Answer => ({ jsonrpc: '2.0', id: call.id, error: { code: -32000, message } });
    const range = find('log-range');
    if (range !== undefined && call.method === 'eth_getLogs') {
      const filter = (call.params?.[0] ?? {}) as { fromBlock?: Hex; toBlock?: Hex; blockHash?: Hex };
      if (filter.blockHash === undefined) {
        const to = filter.toBlock === undefined || !filter.toBlock.startsWith('0x') ? await head() : BigInt(filter.toBlock);
        const from = filter.fromBlock?.startsWith('0x') ? BigInt(filter.fromBlock) : 0n;
        if (to - from + 1n > range.maxBlocks) {
          hits['log-range']++;
          return error(`exceeded maximum block range: ${range.maxBlocks}`);
        }
      }
    }
    if (call.method === 'eth_sendRawTransaction') {
      const raw = call.params?.[0] as Hex;
      const hash = keccak256(raw);
      sentAt.set(hash, Date.now());
      const drop = find('drop-transactions');
      if (drop !== undefined && drop.count > 0) {
        drop.count--;
        hits['drop-transactions']++;
        dropped.push(hash);
        parseTransaction(raw); // a relay checks the envelope before it answers
        return { jsonrpc: '2.0', id: call.id, result: hash };
      }
      const low = find('nonce-too-low');
      if (low !== undefined && low.count > 0) {
        low.count--;
        hits['nonce-too-low']++;
        await forward([call]);
        return error('nonce too low');
      }
    }
    const late = find('late-receipts');
    if (late !== undefined && call.method === 'eth_getTransactionReceipt') {
      const at = sentAt.get(String(call.params?.[0]));
      if (at !== undefined && Date.now() - at < late.delayMs) {
        hits['late-receipts']++;
        return { jsonrpc: '2.0', id: call.id, result: null };
      }
    }
    return undefined;
  };

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await readBody(request);
    requests++;
    const hang = find('hang');
    if (hang !== undefined && requests % hang.every === 0) {
      hits.hang++;
      return; // the socket stays open until the client gives up, or the relay closes
    }
    const status = find('status');
    if (status !== undefined && requests % status.every === 0) {
      hits.status++;
      const headers = status.retryAfterSeconds === undefined ? {} : { 'retry-after': String(status.retryAfterSeconds) };
      response.writeHead(status.status, { 'content-type': 'text/plain', ...headers }).end(`relay says ${status.status}`);
      return;
    }
    const parsed = JSON.parse(body) as Call | Call[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    const own = await Promise.all(calls.map(intercept));
    const passed = await forward(calls.filter((_, index) => own[index] === undefined));
    const byId = new Map(passed.map((each) => [each.id, each]));
    const answers = calls.map((call, index) => own[index] ?? byId.get(call.id));
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
  };

  const server = createServer((request, response) => {
    answer(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502).end('upstream failed');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    set(next) {
      faults = next.map((fault) => ({ ...fault }));
    },
    hits,
    dropped,
    close: () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      return closed;
    },
  };
}
