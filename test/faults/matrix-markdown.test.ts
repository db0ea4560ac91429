import { describe, expect, it } from 'vitest';
import { expectedCell } from '../../scripts/faults.js';

describe('the fault matrix cell of the catalogued requirements', () => {
  it('lists the ones that failed', () => {
    expect(expectedCell({ expected: ['A-1', 'A-2'], expectedFailed: ['A-1', 'A-2'], expectedMet: true })).toBe('A-1, A-2');
  });

  it('names those that did not fail after them', () => {
    expect(expectedCell({ expected: ['A-1', 'A-STATE-01'], expectedFailed: ['A-1'], expectedMet: true })).toBe(
      'A-1 (named, not failed: A-STATE-01)',
    );
  });

  it('marks a fault none of whose named requirements failed', () => {
    expect(expectedCell({ expected: ['A-1', 'A-2'], expectedFailed: [], expectedMet: false })).toBe('**none of** A-1, A-2');
  });
});
