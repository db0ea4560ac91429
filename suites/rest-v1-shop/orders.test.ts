import { runArea } from '../../src/checks/area.js';
import { ordersArea } from '../../src/interfaces/rest-v1-shop/areas/orders.js';

runArea(ordersArea);
