import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingsOf, linksOf, REPOSITORY, readDoc } from '../../packages/server/src/test-support/markdown-doc.js';

/**
 * The documentation's links, as a reader of a clone follows them: every relative link of the
 * README, CONTRIBUTING.md and docs/ names a file of this repository, and every `#anchor` a heading
 * of the page it points to. A link out of the repository (the mission's shared folder beside it
 * included) would be dead on a user's clone: such references are written out in words instead.
 */

const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(resolve(REPOSITORY, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file.split(sep).join('/')}`),
].filter((file) => existsSync(resolve(REPOSITORY, file)));

/** A scheme (`https:`, `mailto:`) makes a link absolute: not a file of the repository. */
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

function anchorsOf(file: string): Set<string> {
  return new Set(headingsOf(readDoc(file)).map((heading) => heading.slug));
}

/** What is wrong with one link of `from`, or null when it resolves. */
function brokenLink(from: string, target: string): string | null {
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? resolve(REPOSITORY, from) : resolve(REPOSITORY, dirname(from), decodeURI(path));
  const inRepository = relative(REPOSITORY, file);
  if (inRepository.startsWith('..')) {
    return 'points outside the repository: describe it in words instead';
  }
  if (!existsSync(file)) return 'names no file of the repository';
  if (anchor === undefined || anchor === '') return null;
  if (!file.endsWith('.md') || statSync(file).isDirectory()) return `has an anchor on ${inRepository}, which is not a page`;
  return anchorsOf(inRepository).has(anchor) ? null : `names no heading of ${inRepository}`;
}

describe('the documentation links', () => {
  it('finds the pages to check', () => {
    expect(DOCUMENTS).toContain('README.md');
    expect(DOCUMENTS).toContain('docs/architecture.md');
  });

  it.each(DOCUMENTS)('resolves every relative link and anchor of %s inside the repository', (file) => {
    const broken = linksOf(readDoc(file))
      .filter((link) => !ABSOLUTE.test(link.target))
      .map((link) => ({ ...link, problem: brokenLink(file, link.target) }))
      .filter((link) => link.problem !== null)
      .map((link) => `${file}:${link.line} ${link.target} ${link.problem}`);
    expect(broken).toEqual([]);
  });

  it('reads GitHub anchors as GitHub writes them', () => {
    const slugs = headingsOf(
      "# A\n## The store: one SQL code base, two engines\n### Swaps of the desk's takers\n## `npm run cluster`\n## A\n```\n# not a heading\n```",
    ).map((heading) => heading.slug);
    expect(slugs).toEqual([
      'a',
      'the-store-one-sql-code-base-two-engines',
      'swaps-of-the-desks-takers',
      'npm-run-cluster',
      'a-1',
    ]);
  });

  it('refuses a link into the shared folder beside the repository, or any other outside it', () => {
    expect(brokenLink('README.md', '../shared/spec/service-spec.md')).toMatch(/outside the repository/);
    expect(brokenLink('docs/deploy.md', '../../etc/passwd')).toMatch(/outside the repository/);
    expect(brokenLink('docs/deploy.md', 'missing.md')).toMatch(/names no file/);
    expect(brokenLink('docs/deploy.md', 'operations.md#no-such-heading')).toMatch(/names no heading/);
    expect(brokenLink('docs/deploy.md', 'operations.md#metrics')).toBeNull();
  });
});
