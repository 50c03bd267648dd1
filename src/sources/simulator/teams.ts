/** Team data lives in the shared catalog (src/catalog/teams.ts), so real sources use the same codes. */
export { TEAMS } from '../../catalog/teams.js';
