import { runArea } from '../../src/checks/area.js';
import { propertiesArea } from '../../src/interfaces/rest-v1-shop/areas/properties.js';

runArea(propertiesArea);
