import { API_KEY_CHANGES, apiKeyView, MAX_API_KEY_QUOTA } from '../../../application/api-keys/api-key-admin.js';
import { type ApiKeyRecord, isApiKey } from '../../../domain/data-api/api-key.js';
import { NETWORKS, type Network } from '../../../domain/network.js';
import { listCommand, type OperatorCommand } from '../operator-command.js';
import type { OperatorIo } from '../operator-io.js';
import { need, optional, UsageError, type Values } from '../operator-options.js';

function describeApiKey(key: ApiKeyRecord): string {
  return `${key.id}\t${key.status}\t${key.environment}\t${key.monthlyQuota}/month${key.overageAllowed ? ' +overage' : ''}\t${key.name}`;
}

async function issueApiKey(values: Values, io: OperatorIo): Promise<{ key: string; record: ApiKeyRecord }> {
  const name = need(values, 'name');
  if (name.length > 100) throw new UsageError('--name must be at most 100 characters');
  const quotaText = need(values, 'quota');
  if (!/^[1-9][0-9]{0,12}$/.test(quotaText) || Number(quotaText) > MAX_API_KEY_QUOTA) {
    throw new UsageError(`--quota must be a whole number from 1 to ${MAX_API_KEY_QUOTA}`);
  }
  const environment = optional(values, 'environment') ?? io.network;
  if (!(NETWORKS as readonly string[]).includes(environment))
    throw new UsageError('--environment must be devnet, testnet or mainnet');
  return io.apiKeys.issue({
    name,
    monthlyQuota: Number(quotaText),
    overageAllowed: values.overage === true,
    environment: environment as Network,
  });
}

/** The key an argument names: its id, or the key itself. */
async function findApiKey(reference: string | undefined, command: string, io: OperatorIo): Promise<ApiKeyRecord> {
  if (reference === undefined) throw new UsageError(`apikey ${command} needs a key id`);
  const key = await io.apiKeys.find(reference);
  if (key === undefined) throw new UsageError(`no API key ${isApiKey(reference) ? 'with that key' : reference}`);
  return key;
}

export const apikeyIssueCommand: OperatorCommand = {
  group: 'apikey',
  actions: ['issue'],
  synopsis: ` --name NAME --quota N [--overage] [--environment devnet|testnet|mainnet]
                       a data API key with N requests per UTC month (--overage: serve and count
                       requests past N instead of refusing them); the key is printed once and
                       only its SHA-256 is stored`,
  async run({ values, print }, io) {
    const { key, record } = await issueApiKey(values, io);
    print(
      { ...apiKeyView(record), key },
      `issued API key ${describeApiKey(record)}\nkey  ${key}\nThis is the only time the key is shown; the store keeps only its SHA-256.`,
    );
    return 0;
  },
};

export const apikeyChangeCommand: OperatorCommand = {
  group: 'apikey',
  actions: [...API_KEY_CHANGES.keys()],
  synopsis: ' <key id>      revoking is final',
  async run({ action, argument, print }, io) {
    const change = API_KEY_CHANGES.get(action);
    if (change === undefined) throw new UsageError(`unknown apikey command "${action}"`);
    const key = await findApiKey(argument, action, io);
    const changed = await io.apiKeys.change(key, change);
    if (changed === undefined) {
      io.err(`API key ${key.id} is ${key.status}; ${action} applies to ${change.from.join(' or ')} keys`);
      return 1;
    }
    print(apiKeyView(changed), `API key ${describeApiKey(changed)}`);
    return 0;
  },
};

export const apikeyListCommand = listCommand('apikey', (io) => io.apiKeys.list(), describeApiKey, apiKeyView);

export const apikeyUsageCommand: OperatorCommand = {
  group: 'apikey',
  actions: ['usage'],
  synopsis: " <key id|key>                  this month's figures and the requests of every month",
  async run({ argument, print }, io) {
    const usage = await io.apiKeys.usage(await findApiKey(argument, 'usage', io));
    print(
      usage,
      [
        `API key ${usage.key.id} (${usage.key.name}), ${usage.month}: ${usage.requests} requests, ${usage.remaining} of ${usage.limit} left, ${usage.additional} additional; resets ${new Date(usage.resetsAt).toISOString()}`,
        ...usage.months.map((month) => `${month.month}\t${month.requests}`),
      ].join('\n'),
    );
    return 0;
  },
};
