import { devnetClients, fund } from '../../src/devnet-chain.js';
import { DevnetNode, type DevnetNodeOptions } from '../../src/index.js';

/**
 * A service in miniature, run as a process of its own (see node-owners.ts): it starts or takes over
 * the devnet node of the options (JSON, argv[2]), funds an address to mark the chain, prints
 * `{ pid, rpcUrl, reattached }` on a line, and then idles until SIGTERM (a clean stop of its node),
 * or, with argv[3] = 'exit', exits at once without stopping it.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as DevnetNodeOptions & { mark: `0x${string}` };
const node = await DevnetNode.start(options);
await fund(devnetClients(node.rpcUrl, options.chainId), options.mark, 4_242n);
process.stdout.write(`${JSON.stringify({ pid: node.pid, rpcUrl: node.rpcUrl, reattached: node.reattached })}\n`);
if (process.argv[3] === 'exit') process.exit(0);
const idle = setInterval(() => {}, 60_000);
process.once('SIGTERM', () => {
  clearInterval(idle);
  void node.stop().then(() => process.exit(0));
});
