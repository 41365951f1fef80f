import { describe, expect, it } from 'vitest';
import { formatChange } from './format-change.js';

describe('formatChange', () => {
  it('marks a rise with a plus sign', () => {
    expect(formatChange('1.2500')).toEqual({ text: '+1.2500%', direction: 'up' });
  });

  it('keeps the API sign of a fall', () => {
    expect(formatChange('-0.3984')).toEqual({ text: '-0.3984%', direction: 'down' });
  });

  it('calls zero flat, negative zero included', () => {
    expect(formatChange('0.0000').direction).toBe('flat');
    expect(formatChange('-0.0000').direction).toBe('flat');
  });

  it('shows a dash without a change, and odd text as it came', () => {
    expect(formatChange(null)).toEqual({ text: '—', direction: 'flat' });
    expect(formatChange('n/a')).toEqual({ text: 'n/a%', direction: 'flat' });
  });
});
