import { describe, expect, it } from 'vitest';
import { codeList, optionProduct } from '../../src/checks/target-data.js';

describe('target data read as lists', () => {
  it('codeList splits on commas, trims, and drops nothing but blanks', () => {
    expect(codeList('EXPIRED5, USEDUP ,X')).toEqual(['EXPIRED5', 'USEDUP', 'X']);
    expect(codeList('3333')).toEqual(['3333']);
    expect(codeList('')).toEqual([]);
    expect(codeList(undefined)).toEqual([]);
  });

  it('optionProduct reads the product and each option entry in order, values with blanks kept whole', () => {
    expect(optionProduct('30:226=16,227=Gift wrap')).toEqual({
      productId: '30',
      options: [
        { optionId: '226', value: '16' },
        { optionId: '227', value: 'Gift wrap' },
      ],
    });
    expect(optionProduct(' 30:226=16 ')).toEqual({ productId: '30', options: [{ optionId: '226', value: '16' }] });
  });

  it('optionProduct gives nothing for an empty or missing value', () => {
    expect(optionProduct('')).toBeUndefined();
    expect(optionProduct(undefined)).toBeUndefined();
  });
});
