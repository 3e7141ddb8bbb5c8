import type { Scenario } from './scenario';

/**
 * S5 models an integration listing what is due: GET /rest/v2/tasks?filter=today | overdue on
 * an account of 5,000 tasks. TODO(#6) once REST v2 and the filter language exist: autocannon
 * (64 connections) against the gateway, versus a bare node:http + pg server (a file next to
 * baseline/noop-sync-server.ts) answering the same URL with one SELECT whose WHERE is the
 * filter's equivalent (due date <= today in the user's timezone, not completed, not deleted)
 * and JSON.stringify of the rows; ratio = product req/s / baseline req/s.
 */
export const s5RestFilter: Scenario = {
  id: 'S5',
  title: 'GET /rest/v2/tasks?filter=today | overdue on 5,000 tasks',
  target: '>= 0.4 of baseline req/s',
  needs: 'REST v2 (the rest service), tasks with due dates and the filter language',
};
