import { runArea } from '../../src/checks/area.js';
import { propertiesArea } from '../../src/interfaces/rest-v1-network/areas/properties.js';

runArea(propertiesArea);
