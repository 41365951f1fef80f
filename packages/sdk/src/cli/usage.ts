import type { Command } from './command.js';
import { DEFAULT_API_URL } from './context.js';

export const PROGRAM = 'dex-trade';

const GLOBAL_OPTIONS_HELP = `Options of every command:
  --url URL          the order book API (default $DEX_API_URL, else ${DEFAULT_API_URL})
  --key-file PATH    a file holding the private key, mode 600 (default $DEX_KEY_FILE)
  --json             the API's own JSON, one document per line, for scripts (jq)
  -h, --help         this text; ${PROGRAM} <command> --help for one command`;

const ENVIRONMENT_HELP = `Environment (keys are never read from the command line):
  DEX_API_URL        the order book API
  DEX_PRIVATE_KEY    the private key: hex, 0x-hex, or the ledger's DER hex
  DEX_KEY_FILE       a file holding it, as \`npm run cli -- account create --key-file\` writes it
  DEX_ACCOUNT        the ledger account 0.0.X of the key; a 0x wallet needs none
  DEX_KEY_TYPE       ed25519 or secp256k1 (default ed25519 for a 0.0.X account, else secp256k1)
  DEX_RPC_URL        the chain's JSON-RPC, for onboard (the devnet's: rpcUrl in DATA_DIR/devnet-chain.json)
  DEX_STATE_DIR      where login keeps sessions (default \${XDG_STATE_HOME:-~/.local/state}/${PROGRAM})`;

const EXIT_CODES = 'Exit codes: 0 done, 1 refused by the API or the network, 2 usage, 130 interrupted.';

function synopsisOf(command: Command): string {
  return `${command.name}${command.synopsis === '' ? '' : ` ${command.synopsis}`}`;
}

function listing(commands: readonly Command[]): string {
  return commands.map((command) => `  ${synopsisOf(command)}\n      ${command.summary}`).join('\n');
}

/** The usage line of one command, for a usage error. */
export function usageLine(command: Command): string {
  return `Usage: ${PROGRAM} ${synopsisOf(command)}\n(${PROGRAM} ${command.name} --help)`;
}

/** `dex-trade --help`. */
export function traderUsage(commands: readonly Command[]): string {
  return [
    `${PROGRAM}: trade on the order book API from a terminal.`,
    '',
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    listing(commands),
    '',
    GLOBAL_OPTIONS_HELP,
    '',
    ENVIRONMENT_HELP,
    '',
    EXIT_CODES,
  ].join('\n');
}

/** `dex-trade order --help`: the commands of one group. */
export function groupUsage(group: string, commands: readonly Command[]): string {
  return [`Usage: ${PROGRAM} ${group} <command> [options]`, '', listing(commands), '', GLOBAL_OPTIONS_HELP].join('\n');
}

/** `dex-trade <command> --help`. */
export function commandUsage(command: Command): string {
  return [
    `Usage: ${PROGRAM} ${synopsisOf(command)}`,
    '',
    `${command.summary[0]?.toUpperCase() ?? ''}${command.summary.slice(1)}.`,
    ...(command.help === undefined ? [] : ['', command.help]),
    '',
    GLOBAL_OPTIONS_HELP,
    '',
    EXIT_CODES,
  ].join('\n');
}
