/**
 * Plain output: aligned tables and label/value lists. `--json` output is the API's own JSON, one
 * document per line (so a watch is NDJSON), with bigints as decimal strings as on the wire.
 */

/** How a column lines up: text to the left, numbers to the right, decimals on their point. */
export type Align = 'left' | 'right' | 'decimal';

export interface Column {
  readonly title: string;
  readonly align?: Align | undefined;
}

export function jsonLine(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
}

/** Pads decimals so that their points line up: `["1.5", "10", "0.25"]` becomes `["1.5 ", "10   ", "0.25"]`. */
export function alignDecimals(values: readonly string[]): string[] {
  const fraction = (value: string) => (value.includes('.') ? value.length - value.indexOf('.') : 0);
  const widest = Math.max(0, ...values.map(fraction));
  return values.map((value) => value + ' '.repeat(widest - fraction(value)));
}

function pad(text: string, width: number, align: Align): string {
  return align === 'left' ? text.padEnd(width) : text.padStart(width);
}

/** A table with a header row, columns two spaces apart; trailing spaces are trimmed. */
export function table(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const cells = columns.map((column, index) => {
    const values = rows.map((row) => row[index] ?? '');
    return column.align === 'decimal' ? alignDecimals(values) : values;
  });
  const widths = columns.map((column, index) =>
    Math.max(column.title.length, ...(cells[index] ?? []).map((cell) => cell.length)),
  );
  const line = (values: readonly string[]) =>
    values
      .map((value, index) => pad(value, widths[index] ?? 0, columns[index]?.align === 'left' ? 'left' : 'right'))
      .join('  ')
      .trimEnd();
  const header = line(columns.map((column) => column.title));
  return [header, ...rows.map((_row, rowIndex) => line(cells.map((column) => column[rowIndex] ?? '')))].join('\n');
}

/** A table with a footer line under it; the footer alone when there are no rows. */
export function tableWithFooter(columns: readonly Column[], rows: readonly (readonly string[])[], footer: string): string {
  return rows.length === 0 ? footer : `${table(columns, rows)}\n${footer}`;
}

/** Label/value lines, values lined up after the longest label. */
export function fields(entries: readonly (readonly [label: string, value: string])[]): string {
  const width = Math.max(...entries.map(([label]) => label.length));
  return entries.map(([label, value]) => `${label.padEnd(width)}  ${value}`.trimEnd()).join('\n');
}

/** Unix ms as an ISO 8601 UTC time; the same in every time zone. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** A 0/1 flag or boolean as yes/no. */
export function yesNo(value: boolean | 0 | 1): string {
  return value === true || value === 1 ? 'yes' : 'no';
}

/** `BASE/QUOTE` by symbol, the token id where a symbol is missing. */
export function pairOf(book: {
  baseTokenSymbol: string | null;
  quoteTokenSymbol: string | null;
  baseTokenId: string;
  quoteTokenId: string;
}): string {
  return `${book.baseTokenSymbol ?? book.baseTokenId}/${book.quoteTokenSymbol ?? book.quoteTokenId}`;
}
