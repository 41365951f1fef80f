/**
 * `npm run test:crash [-- ROUNDS [KIND,...]]`: the kill -9 rounds at full count (20 by default), of
 * every kind or of the kinds named (service, node, both), with the report printed; exits 1 when any
 * round found a fault.
 */
import { type CrashKind, formatReport, runCrashRounds } from './crash-rounds.js';

const KINDS: readonly CrashKind[] = ['service', 'node', 'both'];
const rounds = Number(process.argv[2] ?? 20);
if (!Number.isSafeInteger(rounds) || rounds < 1) throw new Error(`rounds must be a whole number, got ${process.argv[2]}`);
const kinds = (process.argv[3]?.split(',') ?? KINDS) as CrashKind[];
if (!kinds.every((kind) => KINDS.includes(kind))) throw new Error(`kinds are ${KINDS.join(', ')}, got ${process.argv[3]}`);
const report = await runCrashRounds({ rounds, kinds, log: (line) => console.log(line) });
console.log(formatReport(report));
process.exitCode = report.problems.length === 0 ? 0 : 1;
