import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

/** A group commit over an in-memory log: what each transaction stored. */
function logWriter(options: { failing?: () => boolean; spacingMs?: number } = {}) {
  const transactions: string[][] = [];
  const commits = new GroupCommit<string[]>({
    open: () => [],
    isEmpty: (entries) => entries.length === 0,
    ...(options.spacingMs === undefined ? {} : { spacingMs: options.spacingMs }),
    store: async (entries) => {
      if (options.failing?.() === true) throw new Error('disk full');
      transactions.push([...entries]);
    },
  });
  const write = (entry: string) => {
    const group = commits.current;
    group.contents.push(entry);
    commits.schedule();
    return group.stored;
  };
  return { commits, transactions, write };
}

describe('group commit', () => {
  it('stores requests that arrive together in one transaction and answers them after it', async () => {
    const { transactions, write } = logWriter();
    const answered: string[] = [];
    const requests = ['a', 'b', 'c'].map((entry) => write(entry).then(() => answered.push(`${entry}:${transactions.length}`)));
    expect(transactions).toEqual([]);
    await Promise.all(requests);
    expect(transactions).toEqual([['a', 'b', 'c']]);
    expect(answered).toEqual(['a:1', 'b:1', 'c:1']);
  });

  it('opens a new group for requests after a commit started', async () => {
    const { transactions, write } = logWriter();
    await write('a');
    await write('b');
    expect(transactions).toEqual([['a'], ['b']]);
  });

  it('tells every waiter of a group that failed, and the next group still commits', async () => {
    let fail = true;
    const { transactions, write } = logWriter({ failing: () => fail });
    const first = [write('a'), write('b')];
    await expect(first[0]).rejects.toThrow('disk full');
    await expect(first[1]).rejects.toThrow('disk full');
    fail = false;
    await write('c');
    expect(transactions).toEqual([['c']]);
  });

  it('commits at once when asked, and answers an empty group without a transaction', async () => {
    const { commits, transactions } = logWriter();
    const empty = commits.current.stored;
    await commits.commit();
    await empty;
    commits.current.contents.push('now');
    await commits.commit();
    expect(transactions).toEqual([['now']]);
  });

  it('lets requests join for the spacing after a commit when it is busy', async () => {
    const { transactions, write } = logWriter({ spacingMs: 20 });
    await write('a');
    const late = [write('b')];
    await new Promise((resolve) => setImmediate(resolve));
    late.push(write('c'));
    await Promise.all(late);
    expect(transactions).toEqual([['a'], ['b', 'c']]);
  });
});
