/** Prints a table: the first column aligned left, the figures right, columns two spaces apart. */
export function printTable(header: readonly string[], body: readonly (readonly string[])[]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => (cells[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const cells of body) console.log(line(cells));
}
