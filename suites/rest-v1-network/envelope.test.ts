import { runArea } from '../../src/checks/area.js';
import { envelopeArea } from '../../src/interfaces/rest-v1-network/areas/envelope.js';

runArea(envelopeArea);
