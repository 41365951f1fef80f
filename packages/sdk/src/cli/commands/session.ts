import { authenticate } from '../../actions/authenticate.js';
import { UsageError } from '../arguments.js';
import type { Command } from '../command.js';
import { fields, isoTime } from '../output.js';
import { deleteSession, writeSession } from '../session-store.js';

export const loginCommand: Command = {
  name: 'login',
  synopsis: '',
  summary: 'log in with the key and keep the session for later commands until it expires',
  help: [
    "  Signs the server's challenge with the key and stores the access token in a file of mode 600",
    '  under $DEX_STATE_DIR (default $XDG_STATE_HOME/dex-trade, else ~/.local/state/dex-trade), one per server and',
    '  account. Later commands of that account use it instead of logging in again; login never prints the token',
    '  (token does, for scripts).',
  ].join('\n'),
  options: [],
  arguments: [0, 0],
  async run(context) {
    const client = await context.accountClient('login', { signs: true });
    const { account, token, expiresAt } = await authenticate(client);
    const session = { baseUrl: context.baseUrl, account, token, expiresAt: expiresAt ?? null };
    const file = await writeSession(context.stateDir, session);
    context.print(
      { account, expiresAt: session.expiresAt, sessionFile: file },
      fields([
        ['logged in as', account],
        ['until', session.expiresAt === null ? 'the server decides' : isoTime(session.expiresAt)],
        ['session file', file],
      ]),
    );
    return 0;
  },
};

export const logoutCommand: Command = {
  name: 'logout',
  synopsis: '',
  summary: 'delete the stored session of the account on this server',
  help: '  The token stays valid on the server until it expires; only this machine forgets it.',
  options: [],
  arguments: [0, 0],
  async run(context) {
    const { account } = await context.credentials();
    if (account === undefined) throw new UsageError('logout needs the account: set DEX_ACCOUNT, or the key it logged in with');
    const deleted = await deleteSession(context.stateDir, context.baseUrl, account);
    context.print(
      { account, deleted },
      deleted ? `logged out ${account} of ${context.baseUrl}` : `no stored session of ${account} on ${context.baseUrl}`,
    );
    return 0;
  },
};

export const tokenCommand: Command = {
  name: 'token',
  synopsis: '',
  summary: "print the account's access token alone on stdout, for scripts: TOKEN=$(dex-trade token)",
  help: [
    "  The stored session's token while it is good (see login), else a fresh login with the key (not stored).",
    '  Send it as `Authorization: Bearer $TOKEN`. It is a credential: it goes to stdout and nowhere else, so',
    '  keep stdout out of logs. With --json: {"account", "token", "expiresAt"}.',
  ].join('\n'),
  options: [],
  arguments: [0, 0],
  async run(context) {
    const client = await context.accountClient('token');
    const token = await client.session.ensure(client);
    const { account } = await context.credentials();
    context.print({ account, token, expiresAt: client.session.expiresAt ?? null }, token);
    return 0;
  },
};
