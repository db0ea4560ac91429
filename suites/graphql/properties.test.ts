import { runArea } from '../../src/checks/area.js';
import { propertiesArea } from '../../src/interfaces/graphql/areas/properties.js';

runArea(propertiesArea);
