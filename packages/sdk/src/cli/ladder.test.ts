import { describe, expect, it } from 'vitest';
import { ladderLevels } from '../test-support/trader-cli.js';
import type { DepthLevel } from '../types.js';
import { renderLadder } from './ladder.js';

const asks: DepthLevel[] = [
  ['0.25', '2'],
  ['0.251', '3.5'],
  ['0.26', '10'],
];
const bids: DepthLevel[] = [
  ['0.249', '5'],
  ['0.2', '0.25'],
];

describe('renderLadder', () => {
  it('draws asks above the spread worst first and bids below best first, cumulative sizes, decimal points lined up', () => {
    expect(renderLadder({ lastUpdateId: 42, asks, bids }, { levels: 10, title: 'WHBAR/USDC (book 1)' })).toBe(
      [
        'WHBAR/USDC (book 1)  update 42',
        'SIDE  PRICE   SIZE  TOTAL',
        'ask   0.26   10     15.5',
        'ask   0.251   3.5    5.5',
        'ask   0.25    2      2',
        '      spread 0.001 (0.4 %)',
        'bid   0.249   5      5',
        'bid   0.2     0.25   5.25',
      ].join('\n'),
    );
  });

  it('shows the best levels only, and says how many there are', () => {
    const text = renderLadder({ lastUpdateId: 7, asks, bids }, { levels: 1 });
    expect(ladderLevels(text)).toEqual({ asks: [['0.25', '2']], bids: [['0.249', '5']] });
    expect(text).toContain('1 of 3 asks and 1 of 2 bids shown');
    expect(text).toContain('spread 0.001 (0.4 %)');
  });

  it('gives back exactly the levels it was drawn from', () => {
    expect(ladderLevels(renderLadder({ lastUpdateId: 3, asks, bids }, { levels: 10 }))).toEqual({ asks, bids });
  });

  it('says when a side is empty, and shows no spread then', () => {
    const text = renderLadder({ lastUpdateId: 0, asks: [], bids: [['1', '1']] }, { levels: 10 });
    expect(text.split('\n')).toEqual([
      'update 0',
      'SIDE  PRICE  SIZE  TOTAL',
      '      no asks',
      '      spread -',
      'bid       1     1      1',
    ]);
  });

  it.each([
    ['0.249', '0.251', 'spread 0.002 (0.8 %)'],
    ['1', '3', 'spread 2 (100 %)'],
    ['0.3', '0.30001', 'spread 0.00001 (0 %)'],
    ['0.3', '0.3001', 'spread 0.0001 (0.03 %)'],
  ])('gives the spread of bid %s and ask %s relative to the mid price', (bid, ask, expected) => {
    expect(renderLadder({ lastUpdateId: 1, asks: [[ask, '1']], bids: [[bid, '1']] }, { levels: 1 })).toContain(expected);
  });
});
