import { runArea } from '../../src/checks/area.js';
import { stateArea } from '../../src/interfaces/rest-v1-shop/areas/state.js';

runArea(stateArea);
