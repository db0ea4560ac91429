import { runArea } from '../../src/checks/area.js';
import { registrationArea } from '../../src/interfaces/rest-v1-network/areas/registration.js';

runArea(registrationArea);
