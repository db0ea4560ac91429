import { runArea } from '../../src/checks/area.js';
import { couponsArea } from '../../src/interfaces/rest-v1-shop/areas/coupons.js';

runArea(couponsArea);
