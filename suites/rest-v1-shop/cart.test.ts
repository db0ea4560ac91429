import { runArea } from '../../src/checks/area.js';
import { cartArea } from '../../src/interfaces/rest-v1-shop/areas/cart.js';

runArea(cartArea);
