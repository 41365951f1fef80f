/**
 * The examples of a Markdown document that promise to run as printed: each fenced block right after
 * a `<!-- runnable -->` comment is shell, and one after `<!-- runnable: NAME -->` is a file the
 * reader saves as NAME. Blocks may sit indented in a list item; the indentation is not theirs.
 */
export type RunnableBlock =
  | { readonly kind: 'shell'; readonly line: number; readonly text: string }
  | { readonly kind: 'file'; readonly line: number; readonly name: string; readonly text: string };

const MARKER = /^\s*<!--\s*runnable(?::\s*([\w.-]+))?\s*-->\s*$/;
const FENCE = /^(\s*)(```+)(\w*)\s*$/;

/** The runnable blocks of `markdown`, in order; a marker not followed by a fenced block is an error. */
export function runnableBlocks(markdown: string): RunnableBlock[] {
  const lines = markdown.split('\n');
  const blocks: RunnableBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const marker = MARKER.exec(lines[index] ?? '');
    if (marker === null) continue;
    const open = FENCE.exec(lines[index + 1] ?? '');
    if (open === null) throw new Error(`line ${index + 1}: a runnable marker must stand right above a fenced code block`);
    const [, indent = '', fence = '```'] = open;
    const close = lines.findIndex((line, at) => at > index + 1 && line.trim() === fence);
    if (close < 0) throw new Error(`line ${index + 2}: the code block is never closed`);
    const text = lines
      .slice(index + 2, close)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
      .join('\n');
    const name = marker[1];
    blocks.push(name === undefined ? { kind: 'shell', line: index + 1, text } : { kind: 'file', line: index + 1, name, text });
    index = close;
  }
  return blocks;
}

/**
 * One bash script doing what a reader of the blocks does, in order and in one shell: runs each shell
 * block and saves each file where the shell then stands. Stops at the first command that fails.
 */
export function readerScript(blocks: readonly RunnableBlock[]): string {
  const steps = blocks.map((block) => {
    if (block.kind === 'shell') return `# line ${block.line}\n${block.text}`;
    const end = 'END_OF_RUNNABLE_FILE';
    if (block.text.includes(end)) throw new Error(`line ${block.line}: the file contains ${end}`);
    return `# line ${block.line}: ${block.name}\ncat > ${block.name} <<'${end}'\n${block.text}\n${end}`;
  });
  return ['set -euo pipefail', ...steps].join('\n\n');
}
