import { runArea } from '../../src/checks/area.js';
import { negativeArea } from '../../src/interfaces/rest-route/areas/negative.js';

runArea(negativeArea);
