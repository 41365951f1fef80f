/**
 * `npm run test:crash [-- ROUNDS]`: the kill -9 rounds at full count (20 by default), with the
 * report printed; exits 1 when any round found a fault.
 */
import { formatReport, runCrashRounds } from './crash-rounds.js';

const rounds = Number(process.argv[2] ?? 20);
if (!Number.isSafeInteger(rounds) || rounds < 1) throw new Error(`rounds must be a whole number, got ${process.argv[2]}`);
const report = await runCrashRounds({ rounds, log: (line) => console.log(line) });
console.log(formatReport(report));
process.exitCode = report.problems.length === 0 ? 0 : 1;
