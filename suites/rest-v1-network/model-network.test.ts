import { runArea } from '../../src/checks/area.js';
import { modelNetworkArea } from '../../src/interfaces/rest-v1-network/areas/model-network.js';

runArea(modelNetworkArea);
