import { runArea } from '../../src/checks/area.js';
import { catalogArea } from '../../src/interfaces/rest-route/areas/catalog.js';

runArea(catalogArea);
