import { runArea } from '../../src/checks/area.js';
import { negativeArea } from '../../src/interfaces/rest-v1-shop/areas/negative.js';

runArea(negativeArea);
