import { runArea } from '../../src/checks/area.js';
import { catalogArea } from '../../src/interfaces/rest-v1-shop/areas/catalog.js';

runArea(catalogArea);
