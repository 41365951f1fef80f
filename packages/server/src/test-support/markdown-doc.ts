import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A markdown document as the tests that hold the docs to the code read it: its headings (with the
 * anchors GitHub gives them), its tables under the heading they sit in, and its links. Fenced code
 * blocks are left out of all three: a sample is not part of the page's structure.
 */

/** The repository's root folder. */
export const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** A document of the repository, by its path from the root (`docs/routes.md`). */
export function readDoc(path: string): string {
  return readFileSync(resolve(REPOSITORY, path), 'utf8');
}

export interface Heading {
  readonly level: number;
  readonly text: string;
  /** The anchor GitHub renders for it (`#the-store-one-sql-code-base-two-engines`), duplicates numbered. */
  readonly slug: string;
}

export interface TableRow {
  /** The text of the level-2 heading above the table ('' before the first). */
  readonly section: string;
  /** The text of the nearest heading above the table, of any level. */
  readonly heading: string;
  readonly cells: readonly string[];
}

export interface Link {
  readonly target: string;
  readonly line: number;
}

/** The document's lines with every fenced code block blanked, line numbers kept. */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence === null && marker !== undefined) {
      fence = marker;
      return '';
    }
    if (fence !== null) {
      if (marker !== undefined && line.trim().startsWith(fence)) fence = null;
      return '';
    }
    return line;
  });
}

/** A heading's text as GitHub renders it: code spans, emphasis and links reduced to their text. */
function renderedText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|\*)/g, '')
    .trim();
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
export function githubSlug(text: string): string {
  return renderedText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

export function headingsOf(markdown: string): Heading[] {
  const seen = new Map<string, number>();
  const headings: Heading[] = [];
  for (const line of proseLines(markdown)) {
    const match = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    const base = githubSlug(match[2]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    headings.push({ level: match[1].length, text: renderedText(match[2]), slug: count === 0 ? base : `${base}-${count}` });
  }
  return headings;
}

/** A table row's cells, trimmed; `\|` inside a cell is a literal bar. */
function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll('\\|', '|'));
}

/** Every body row of every table, with the headings it sits under (header and rule rows left out). */
export function tableRowsOf(markdown: string): TableRow[] {
  const rows: TableRow[] = [];
  let section = '';
  let heading = '';
  let header = true;
  for (const line of proseLines(markdown)) {
    const title = /^(#{1,6})\s+(.*)$/.exec(line);
    if (title?.[1] !== undefined && title[2] !== undefined) {
      heading = renderedText(title[2]);
      if (title[1].length === 2) section = heading;
      continue;
    }
    if (!line.trim().startsWith('|')) {
      header = true;
      continue;
    }
    if (header) {
      header = /^\s*\|?\s*:?-{3,}/.test(line) ? false : header;
      continue;
    }
    rows.push({ section, heading, cells: cellsOf(line) });
  }
  return rows;
}

/** The text of each `code span` in a cell. */
export function codeSpans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
}

/** Every inline link and image target of the prose, outside code spans. */
export function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  proseLines(markdown).forEach((line, index) => {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1] as string, line: index + 1 });
    }
  });
  return links;
}
