import { runArea } from '../../src/checks/area.js';
import { boundariesArea } from '../../src/interfaces/rest-route/areas/boundaries.js';

runArea(boundariesArea);
