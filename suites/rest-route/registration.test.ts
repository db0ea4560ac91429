import { runArea } from '../../src/checks/area.js';
import { registrationArea } from '../../src/interfaces/rest-route/areas/registration.js';

runArea(registrationArea);
