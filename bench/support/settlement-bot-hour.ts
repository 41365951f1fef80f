/**
 * bench:settlement's `--bot-minutes`: after its phases, `npm start`'s bot (market making and pool
 * drift) on the same server and chain for that long, sampled as bench:devnet-state samples a live
 * devnet. It tells whether what a settlement burst left on the chain (the state of its orders,
 * blocks heavy with call traces) keeps the chain's state file and anvil's CPU per transaction
 * from staying flat once ordinary traffic resumes, as a long-running `npm start` must.
 */
import { ChainSampler, type Flatness, flatness, flatVerdict, printSamples, sampleFor } from './chain-samples.js';
import { whole } from './report.js';
import { ask, type ServerProcess } from './server-process.js';

export async function botAfterSettlement(server: ServerProcess, minutes: number, everySeconds: number): Promise<Flatness> {
  await ask(server, { type: 'bot' }, 'bot-started');
  console.log('');
  console.log(
    `the live devnet's bot on the same chain for ${whole.format(minutes)} min after the phases, sampled every ${everySeconds} s:`,
  );
  const sampler = new ChainSampler('devnet', server.dataDir);
  const rows = await sampleFor([sampler], minutes, everySeconds);
  const flat = flatness(sampler);
  printSamples(rows, [flat]);
  console.log(flatVerdict(flat));
  return flat;
}
