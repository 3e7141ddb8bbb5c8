import type { Scenario } from './scenario';

/**
 * S4 checks that an incremental sync costs what changed, not what the account holds: one
 * change on an account of 500 tasks versus one of 50,000. The baseline is the small account
 * itself (same request, same run). TODO(#6) once tasks exist: grow two accounts with
 * `growAccount` (500 and 50,000 tasks), then for each, repeatedly: one item_update through the
 * API, then time the incremental sync from the token before it (sequential, p50 over ~200
 * rounds); ratio = large p50 / small p50.
 */
export const s4IncrementalScale: Scenario = {
  id: 'S4',
  title: 'incremental sync with one change: 50,000-task vs 500-task account',
  target: '<= 1.3x the small account',
  needs: 'its product half: tasks exist since commit 5d9484c, the scenario and the 50,000-task generator are still to write',
};
