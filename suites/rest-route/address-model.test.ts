import { runArea } from '../../src/checks/area.js';
import { addressModelArea } from '../../src/interfaces/rest-route/areas/address-model.js';

runArea(addressModelArea);
