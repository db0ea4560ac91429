import { runArea } from '../../src/checks/area.js';
import { cartArea } from '../../src/interfaces/graphql/areas/cart.js';

runArea(cartArea);
