import { runArea } from '../../src/checks/area.js';
import { addressBookArea } from '../../src/interfaces/rest-route/areas/address-book.js';

runArea(addressBookArea);
