import { describe, expect, it } from 'vitest';
import { couponOff } from '../../src/checks/target-data.js';
import { couponDue } from '../../src/interfaces/graphql/model-cart.js';

// GQL-STATE-01 judges coupon_discount by what the target's data says its coupon takes off
// (document 3 gives no amount): SFC_GQL_COUPON_OFF, an amount or a share.
describe('couponOff / couponDue', () => {
  it('reads an amount, a share, and nothing', () => {
    expect(couponOff('10')).toEqual({ kind: 'amount', value: 10 });
    expect(couponOff(' 12.5% ')).toEqual({ kind: 'share', percent: 12.5 });
    expect(couponOff('')).toBeUndefined();
    expect(couponOff(undefined)).toBeUndefined();
  });
  it('caps an amount at the subtotal, and takes a share of it with a cent of rounding either way', () => {
    expect(couponDue({ kind: 'amount', value: 10 }, 123)).toEqual({ due: -10, slack: 0.005 });
    expect(couponDue({ kind: 'amount', value: 10 }, 4.5)).toEqual({ due: -4.5, slack: 0.005 });
    const share = couponDue({ kind: 'share', percent: 15 }, 33.33);
    expect(share.due).toBeCloseTo(-4.9995, 6);
    expect(share.slack).toBeCloseTo(0.015, 6);
  });
});
