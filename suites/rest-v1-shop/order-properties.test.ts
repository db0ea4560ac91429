import { runArea } from '../../src/checks/area.js';
import { orderPropertiesArea } from '../../src/interfaces/rest-v1-shop/areas/order-properties.js';

runArea(orderPropertiesArea);
