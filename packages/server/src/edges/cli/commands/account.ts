import { rm, writeFile } from 'node:fs/promises';
import { isLedgerId } from '@dex/core';
import { type AccountKeyRecord, type AccountKeyType, parsePublicKeyHex } from '../../../domain/accounts/account-keys.js';
import { listCommand, type OperatorCommand } from '../operator-command.js';
import type { OperatorIo } from '../operator-io.js';
import { need, UsageError, type Values } from '../operator-options.js';
import { describeFunding, fundCreated } from './account-funding.js';
import { refuseKeyFileInRepo } from './key-file.js';

const KEY_TYPES = new Map<string, AccountKeyType>([
  ['ed25519', 'ED25519'],
  ['secp256k1', 'ECDSA_SECP256K1'],
]);

function keyType(values: Values): AccountKeyType {
  const type = KEY_TYPES.get(need(values, 'key-type').toLowerCase());
  if (type === undefined) throw new UsageError('--key-type must be ed25519 or secp256k1');
  return type;
}

function describeAccount(account: AccountKeyRecord): string {
  return `${account.accountId}\t${account.keyType}\t${account.evmAddress}\t${account.publicKey}`;
}

async function addAccount(values: Values, io: OperatorIo): Promise<AccountKeyRecord> {
  const id = need(values, 'id');
  if (!isLedgerId(id)) throw new UsageError('--id must be a ledger id such as 0.0.123456');
  const type = keyType(values);
  const publicKey = parsePublicKeyHex(type, need(values, 'public-key'));
  const account = await io.accounts.register(id, type, publicKey);
  if (account === undefined) throw new UsageError(`--id ${id} is a token`);
  return account;
}

/** The devnet faucet: a fresh key pair under the next free id; only the key file ever sees the private key. */
async function createAccount(values: Values, io: OperatorIo): Promise<AccountKeyRecord> {
  const type = keyType(values);
  const keyFile = need(values, 'key-file');
  refuseKeyFileInRepo(keyFile, values['allow-in-repo'] === true);
  const { secretKey, publicKey } = io.newKeyPair(type);
  try {
    await writeFile(keyFile, `${Buffer.from(secretKey).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const exists = (error as { code?: unknown }).code === 'EEXIST';
    throw exists ? new UsageError(`--key-file ${keyFile} exists; it is never overwritten`) : error;
  } finally {
    secretKey.fill(0);
  }
  try {
    return await io.accounts.registerNew(type, publicKey);
  } catch (error) {
    // The key of an account that was never registered is of no use to anyone.
    await rm(keyFile, { force: true });
    throw error;
  }
}

export const accountAddCommand: OperatorCommand = {
  group: 'account',
  actions: ['add'],
  synopsis: ' --id 0.0.X --key-type ed25519|secp256k1 --public-key HEX',
  async run({ values, print }, io) {
    const account = await addAccount(values, io);
    print(account, `added account ${describeAccount(account)}`);
    return 0;
  },
};

export const accountCreateCommand: OperatorCommand = {
  group: 'account',
  actions: ['create'],
  synopsis: ` --key-type ed25519|secp256k1 --key-file PATH [--allow-in-repo] [--amount N] [--no-fund]
                       [--no-associate] [--no-approve]
                       devnet faucet: a new account 0.0.N with a fresh key pair; the private key
                       goes to PATH (hex, mode 600, never overwritten; refused inside a git work
                       tree unless --allow-in-repo), the public key is registered; with the devnet
                       chain running it is funded as by account fund`,
  async run({ values, print }, io) {
    const account = await createAccount(values, io);
    const funded = values.fund === false ? null : await fundCreated(account, values, io);
    print(
      { ...account, keyFile: values['key-file'], funded },
      `created account ${account.accountId}\nkey type     ${account.keyType}\npublic key   ${account.publicKey}\nEVM address  ${account.evmAddress}\nprivate key  written to ${values['key-file']}${
        funded === null ? '' : `\nfunded with  ${describeFunding(funded)}`
      }`,
    );
    return 0;
  },
};

export const accountListCommand = listCommand('account', (io) => io.accounts.list(), describeAccount);
