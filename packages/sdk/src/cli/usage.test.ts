import { PrivateKey } from '@hashgraph/sdk';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingFetch, unusedUrl } from '../test-support/server.js';
import { TraderCli } from '../test-support/trader-cli.js';

let cli: TraderCli;

// Nothing listens at the URL: a command that sent anything would fail with exit code 1, not 2.
beforeAll(async () => {
  cli = await TraderCli.create(await unusedUrl());
});

afterAll(async () => {
  await cli?.close();
});

/** Runs a command that must be refused before anything is sent. */
async function refused(argv: readonly string[], env: Record<string, string> = {}) {
  const recorder = recordingFetch();
  const run = await cli.run(argv, { fetch: recorder.fetch, env });
  expect(recorder.urls).toEqual([]);
  expect(run.out).toBe('');
  return run;
}

const hexKey = generatePrivateKey();
const ed25519 = PrivateKey.generateED25519();
/** A JWT-shaped string made here (nothing signs it), so no token-like text is committed. */
const jwt = [{ alg: 'HS256' }, { sub: '0xab' }, 'not a signature']
  .map((part) => Buffer.from(typeof part === 'string' ? part : JSON.stringify(part)).toString('base64url'))
  .join('.');

describe('keys on the command line', () => {
  it.each([
    ['--private-key', hexKey],
    ['--key', hexKey.slice(2)],
    ['--secret', 'hunter2hunter2'],
    ['--mnemonic', 'test test test junk'],
    ['--seed', 'abandon abandon'],
    ['--token', 'opaque-session'],
    ['--jwt', 'opaque-session'],
    ['--pk', 'abc123'],
    ['--PrivateKey', 'abc123'],
  ])('refuses the option %s with the environment variables to use instead, never repeating it', async (option, value) => {
    for (const argv of [
      ['order', 'list', option, value],
      ['order', 'list', `${option}=${value}`],
    ]) {
      const { code, err } = await refused(argv);
      expect(code).toBe(2);
      expect(err).toContain(`${option} is refused`);
      expect(err).toContain('DEX_PRIVATE_KEY');
      expect(err).toContain('DEX_KEY_FILE');
      expect(err).not.toContain(value);
    }
  });

  it.each([
    ['a 0x hex key', hexKey],
    ['a bare hex key', hexKey.slice(2).toUpperCase()],
    ['the DER hex of an Ed25519 key', ed25519.toStringDer()],
    ['a JWT', jwt],
  ])('refuses %s given as an argument or an option value, without repeating it', async (_name, secret) => {
    for (const argv of [
      ['login', secret],
      ['order', 'cancel', secret],
      ['depth', '1', `--levels=${secret}`],
      ['books', '--url', secret],
      ['books', `--${secret}`],
    ]) {
      const { code, err } = await refused(argv);
      expect(code).toBe(2);
      expect(err).toContain('looks like a private key or an access token');
      expect(err.toLowerCase()).not.toContain(secret.toLowerCase().replace(/^0x/, ''));
    }
  });
});

describe('usage errors exit with code 2 before sending anything', () => {
  it.each([
    [['books', '--bogus'], "Unknown option '--bogus'"],
    [['books', '--side', 'buy'], 'books does not take --side'],
    [['books', 'extra'], 'books takes no arguments'],
    [['trades', '1', '--limit', '1', '--limit', '2'], '--limit is given twice'],
    [['depth'], 'depth needs 1 argument(s)'],
    [['depth', '1', '2'], 'depth takes at most 1 argument(s)'],
    [['depth', '0'], 'The book id must be a whole number from 1'],
    [['depth', '1.5'], 'The book id must be a whole number from 1'],
    [['depth', 'one'], 'The book id must be a whole number from 1'],
    [['depth', '1', '--levels', '0'], '--levels must be a whole number from 1 to 10000'],
    [['trades', '1', '--sort', 'up'], '--sort must be asc or desc'],
    [['trades', '1', '--page', '-2'], "'--page"],
    [['order', 'list', '--status', 'OPEN,BOGUS'], '--status takes a comma list of ACTIVE, PARTIALLY_FILLED'],
    [['order', 'cancel'], 'Give the ids of the orders to cancel, or --all'],
    [['order', 'cancel', '7', '--all'], 'Give order ids or --all, not both'],
    [['order', 'cancel', 'seven'], 'An order id must be a whole number from 1'],
    [['order', 'place', '1'], '--side is required'],
    [['order', 'place', '1', '--side', 'up'], '--side must be buy or sell'],
    [['order', 'place', '1', '--side', 'buy', '--type', 'stop'], '--type must be limit or market'],
    [['order', 'history', '1', '--all'], 'order history does not take --all'],
    [['order', 'cancel-after'], 'order cancel-after needs 1 argument(s)'],
    [['order', 'cancel-after', '86401'], 'SECONDS must be a whole number from 0 to 86400'],
    [['order', 'cancel-after', '1.5'], 'SECONDS must be a whole number from 0 to 86400'],
    [['order', 'events', '--book', 'two'], '--book must be a whole number from 1'],
    [['order', 'list', '--cancel-on-disconnect'], 'order list does not take --cancel-on-disconnect'],
    [['books', '--url', 'ftp://example.com'], '--url: baseUrl must be an absolute http or https URL'],
  ])('%j', async (argv, message) => {
    const { code, err } = await refused(argv, { DEX_PRIVATE_KEY: hexKey });
    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  it('names the command and its usage line after the error', async () => {
    const { err } = await refused(['trades', '1', '--sort', 'up']);
    expect(err.split('\n')).toEqual([
      'dex-trade: --sort must be asc or desc',
      'Usage: dex-trade trades <book> [--limit N] [--page N] [--sort asc|desc]',
      '(dex-trade trades --help)',
    ]);
  });

  it('refuses a DEX_API_URL that is not an http URL', async () => {
    const { code, err } = await refused(['books'], { DEX_API_URL: 'localhost:3000' });
    expect(code).toBe(2);
    expect(err).toContain('DEX_API_URL: baseUrl must be an absolute http or https URL');
  });

  it('prints the usage on stderr without a command, and names an unknown one', async () => {
    const none = await refused([]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('Usage: dex-trade <command> [options]');
    const unknown = await refused(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err.split('\n')[0]).toBe('dex-trade: unknown command "frobnicate"');
    const inGroup = await refused(['order', 'frobnicate']);
    expect(inGroup.err.split('\n')[0]).toBe('dex-trade: unknown command "order frobnicate"');
    expect(inGroup.err).toContain('order place <book>');
  });

  it('asks for a key or a login where a command acts as an account', async () => {
    for (const argv of [
      ['order', 'list'],
      ['order', 'cancel', '--all'],
      ['order', 'cancel-after', '60'],
      ['order', 'history', '3'],
      ['order', 'events'],
      ['logout'],
      ['token'],
    ]) {
      const { code, err } = await refused(argv);
      expect(code).toBe(2);
      expect(err).toMatch(/DEX_PRIVATE_KEY|DEX_ACCOUNT/);
    }
    const { code, err } = await refused(['order', 'place', '1', '--side', 'buy', '--price', '1', '--size', '1']);
    expect(code).toBe(2);
    expect(err).toContain('order place signs with the account');
  });
});

describe('help', () => {
  it('lists every command, the global options, the environment and the exit codes', async () => {
    for (const argv of [['--help'], ['-h']]) {
      const { code, out, err } = await cli.run(argv);
      expect({ code, err }).toEqual({ code: 0, err: '' });
      for (const command of [
        'books',
        'depth <book>',
        'trades <book>',
        'quote <book>',
        'login',
        'logout',
        'token',
        'order place <book>',
        'order cancel',
        'order cancel-after <seconds>',
        'order list',
        'order history <id>',
        'order events [--book N] [--cancel-on-disconnect]',
      ]) {
        expect(out).toContain(`\n  ${command}`);
      }
      for (const text of [
        '--url URL',
        '--key-file PATH',
        '--json',
        'DEX_PRIVATE_KEY',
        'DEX_ACCOUNT',
        'DEX_KEY_TYPE',
        'DEX_STATE_DIR',
        'Exit codes: 0 done',
      ]) {
        expect(out).toContain(text);
      }
    }
  });

  it('explains one command, or the commands of a group', async () => {
    const place = await cli.run(['order', 'place', '--help']);
    expect(place.code).toBe(0);
    expect(place.out.split('\n')[0]).toBe(
      'Usage: dex-trade order place <book> --side buy|sell --price P --size S [--deadline SECONDS] [--maker-only] [--taker-once] [--amm]',
    );
    expect(place.out).toContain('--spend Q            quote amount a market buy spends');
    expect(place.out).toContain('order place <book> --type market --side buy --spend Q [--price WORST] [--taker-once] [--amm]');
    expect(place.out).toContain("--amm                may take part of its size from the book's pool");
    const quote = await cli.run(['quote', '--help']);
    expect(quote.out.split('\n')[0]).toBe('Usage: dex-trade quote <book> --sell AMOUNT | --buy AMOUNT [--amm]');
    expect(quote.out).toContain("--amm           include the book's pool, as an order placed with --amm trades");
    const order = await cli.run(['order', '--help']);
    expect(order.code).toBe(0);
    expect(order.out.split('\n')[0]).toBe('Usage: dex-trade order <command> [options]');
    expect(order.out).not.toContain('\n  books');
  });
});
