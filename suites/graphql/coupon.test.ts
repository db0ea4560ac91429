import { runArea } from '../../src/checks/area.js';
import { couponArea } from '../../src/interfaces/graphql/areas/coupon.js';

runArea(couponArea);
