// The fault suite's own Jest configuration (`npm run test:faults`): the e2e tier's settings,
// matching only *.fault-spec.ts, so `npm test` never runs it (it restarts servers and takes minutes).
import root from '../../jest.config.mjs';

const e2e = root.projects.find((project) => project.displayName === 'e2e');

export default { ...e2e, displayName: 'faults', testMatch: ['<rootDir>/e2e/faults/**/*.fault-spec.ts'] };
