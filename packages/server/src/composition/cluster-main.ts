#!/usr/bin/env node
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';

/**
 * `npm run cluster`: the service as a cluster on this machine, against the local PostgreSQL and
 * NATS (and Redis for the shared state): engines first (shard 0 seeds the devnet markets), then
 * the settlers (one active, the devnet chain in DATA_DIR), then the gateways on PORT, PORT+1, ...
 * Each role is its own process, run as production runs it, with its output prefixed by its name.
 * A role that exits is started again a second later, as its supervisor would; Ctrl-C stops them all.
 */

const env = process.env;
const ENGINES = Number(env.CLUSTER_ENGINES ?? 2);
const GATEWAYS = Number(env.CLUSTER_GATEWAYS ?? 2);
const CHAIN = env.CHAIN ?? 'devnet';
const SETTLERS = CHAIN === 'off' ? 0 : Number(env.CLUSTER_SETTLERS ?? 2);
// Not `./data`: the chain there belongs to `npm start`'s store, and this cluster keeps another.
const DATA_DIR = env.DATA_DIR !== undefined && env.DATA_DIR !== '' ? env.DATA_DIR : './data/cluster';
const PORT = Number(env.PORT ?? 3000);
const DATABASE = env.CLUSTER_DB ?? 'dex_cluster';
const POSTGRES = env.CLUSTER_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function databaseUrl(): string {
  if (env.DATABASE_URL !== undefined && env.DATABASE_URL !== '') return env.DATABASE_URL;
  const url = new URL(POSTGRES);
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

/** Creates CLUSTER_DB unless it exists (DATABASE_URL given: used as it is). */
async function ensureDatabase(): Promise<void> {
  if (env.DATABASE_URL !== undefined && env.DATABASE_URL !== '') return;
  if (!/^[a-z_][a-z0-9_]*$/.test(DATABASE)) throw new Error('CLUSTER_DB must be a lower-case SQL name');
  const sql = postgres(POSTGRES, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`SELECT 1 FROM pg_database WHERE datname = ${DATABASE}`;
    if (rows.length === 0) await sql.unsafe(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await sql.end({ timeout: 2 });
  }
}

/** Every gateway signs and checks the same access tokens: one secret for the cluster, made here unless JWT_SECRET is set. */
const JWT_SECRET = env.JWT_SECRET !== undefined && env.JWT_SECRET !== '' ? env.JWT_SECRET : randomBytes(32).toString('hex');

// What each role runs: the entry given (`npm run cluster` gives the devnet's, which adds the bot
// beside a gateway that asks for it), else the service's own.
const main = process.argv[2] ?? fileURLToPath(new URL('./main.js', import.meta.url));
// The launcher's own Node flags (a launcher run from source through tsx runs its roles so too), with source maps.
const nodeFlags = process.execArgv.includes('--enable-source-maps')
  ? process.execArgv
  : ['--enable-source-maps', ...process.execArgv];
const children = new Map<string, ChildProcess>();
let stopping = false;

function prefixed(name: string, stream: NodeJS.ReadableStream, out: NodeJS.WritableStream): void {
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) out.write(`${name.padEnd(9)} | ${line}\n`);
  });
}

/** How long a role that exited waits before it is started again. */
const RESTART_MS = 1_000;

function start(name: string, roleEnv: Record<string, string>): Promise<void> {
  // Nothing starts once the cluster stops: a role started after the others were told to stop would outlive them.
  if (stopping) return Promise.reject(new Error(`${name} not started: the cluster is stopping`));
  const child = spawn(process.execPath, [...nodeFlags, main], {
    env: {
      ...env,
      CHAIN,
      DATA_DIR,
      DATABASE_URL: databaseUrl(),
      NATS_URL: env.NATS_URL ?? 'nats://127.0.0.1:4222',
      REDIS_URL: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      ENGINE_SHARDS: String(ENGINES),
      JWT_SECRET,
      ...roleEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(name, child);
  prefixed(name, child.stdout, process.stdout);
  prefixed(name, child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping) return;
    // As a supervisor restarts a role that lost its lease or its store (exit 1); a configuration
    // error (exit 2) would only fail again.
    if (code === 2) {
      process.stderr.write(`${name} exited (${signal ?? code}); stopping the cluster\n`);
      stop(1);
      return;
    }
    process.stderr.write(`${name} exited (${signal ?? code}); starting it again in ${RESTART_MS} ms\n`);
    setTimeout(() => {
      if (!stopping) start(name, roleEnv).catch(() => {});
    }, RESTART_MS);
  });
  // Ready when it says so: an engine once it follows its log, a settler once it settles or stands
  // by, a gateway once it listens.
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (/following its command log|settler running|standing by|order book API listening/.test(chunk.toString())) resolve();
    });
    child.on('exit', () => reject(new Error(`${name} stopped while starting`)));
  });
}

function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill('SIGTERM');
  const waitFor = setInterval(() => {
    if (children.size === 0) {
      clearInterval(waitFor);
      process.exit(code);
    }
  }, 100);
}

async function run(): Promise<void> {
  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  await ensureDatabase();
  for (let shard = 0; shard < ENGINES; shard++) await start(`engine-${shard}`, { ROLE: 'engine', ENGINE_SHARD: String(shard) });
  for (let index = 0; index < SETTLERS; index++) await start(`settler-${index}`, { ROLE: 'settler', METRICS_PORT: '' });
  for (let index = 0; index < GATEWAYS; index++) {
    // The live devnet's bot trades through gateway 1 (the only one, if alone), as any client would.
    const bot = index === Math.min(1, GATEWAYS - 1) ? (env.MARKET_MAKER ?? 'true') : 'false';
    await start(`gateway-${index}`, { ROLE: 'gateway', PORT: String(PORT + index), METRICS_PORT: '', MARKET_MAKER: bot });
  }
  process.stdout.write(
    `cluster up: ${ENGINES} engines, ${SETTLERS} settlers (${CHAIN === 'off' ? 'no chain' : 'one active'}), gateways on ${Array.from({ length: GATEWAYS }, (_, index) => `http://127.0.0.1:${PORT + index}`).join(', ')} (Ctrl-C stops it)\n`,
  );
}

run().catch((error: unknown) => {
  process.stderr.write(`cluster: ${error instanceof Error ? error.message : String(error)}\n`);
  stop(1);
});
