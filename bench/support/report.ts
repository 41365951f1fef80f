/** Figures and tables of the benchmarks. */
import { cpus, loadavg } from 'node:os';

export const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
/** One decimal place. */
export const tenths = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** Milliseconds to the tenth. */
export const millis = tenths;
/** Milliseconds to the hundredth, for latencies of a millisecond or two. */
export const fineMillis = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Nearest-rank percentile of ascending samples. */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

export function verdict(passed: boolean): string {
  return passed ? 'PASS' : 'MISS';
}

/** Prints a table: the first `textColumns` columns align left, the figures right. */
export function printTable(header: readonly string[], body: readonly (readonly string[])[], textColumns = 1): void {
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => (cells[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column < textColumns ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const cells of body) console.log(line(cells));
}

/** The machine a benchmark ran on, for its first line: Node, CPU, cores and the load average. */
export function machineText(): string {
  const [one, five] = loadavg();
  const model = cpus()[0]?.model ?? 'unknown CPU';
  return `node ${process.version}, ${model} (${cpus().length} cores, shared), load average ${one?.toFixed(2)} / ${five?.toFixed(2)}`;
}
