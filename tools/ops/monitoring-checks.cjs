// What `npm run ops:check` holds the monitoring files to (k8s/components/monitoring): the alert
// rules well formed and the same in the plain file and the PrometheusRule, the dashboard's panels
// well formed, and every Doable metric a rule or panel names really exported by the code, so a
// renamed metric cannot leave an alert that never fires. CommonJS, like pod-security.cjs.
'use strict';

const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

const DURATION = /^([0-9]+(ms|s|m|h|d|w|y))+$/;
const SEVERITIES = new Set(['critical', 'warning', 'info']);
/** Suffixes Prometheus adds to a histogram's or a summary's series. */
const SERIES_SUFFIX = /_(bucket|count|sum)$/;

/** Problems with a rules document (`groups:`), as readable lines; empty when it is well formed. */
function ruleProblems(document) {
  const problems = [];
  const groups = document && document.groups;
  if (!Array.isArray(groups) || groups.length === 0) return ['no groups'];
  for (const group of groups) {
    if (typeof group.name !== 'string' || group.name === '') problems.push('a group without a name');
    if (!Array.isArray(group.rules) || group.rules.length === 0) problems.push(`group ${group.name}: no rules`);
    for (const rule of group.rules || []) {
      const name = rule.alert || rule.record;
      const at = `group ${group.name}, ${name || 'a rule without alert or record'}`;
      if (!name) problems.push(at);
      if (typeof rule.expr !== 'string' || rule.expr.trim() === '') problems.push(`${at}: no expr`);
      else if (!balanced(rule.expr)) problems.push(`${at}: unbalanced brackets in expr`);
      if (rule.for !== undefined && !DURATION.test(String(rule.for))) problems.push(`${at}: for is not a duration (${rule.for})`);
      if (rule.alert) {
        if (!SEVERITIES.has(rule.labels && rule.labels.severity)) problems.push(`${at}: labels.severity is not one of ${[...SEVERITIES].join(', ')}`);
        if (!(rule.annotations && rule.annotations.summary)) problems.push(`${at}: no annotations.summary`);
      }
    }
  }
  return problems;
}

/** Whether (), [] and {} pair up outside quoted strings. */
function balanced(expr) {
  const open = { ')': '(', ']': '[', '}': '{' };
  const stack = [];
  let quote;
  for (const char of expr) {
    if (quote) {
      if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'" || char === '`') quote = char;
    else if ('([{'.includes(char)) stack.push(char);
    else if (char in open && stack.pop() !== open[char]) return false;
  }
  return stack.length === 0 && !quote;
}

/** The Doable metric families an expression names (`doable_x_bucket` counts as `doable_x`). */
function doableMetricsIn(expr) {
  const withoutStrings = expr.replace(/"[^"]*"/g, '""');
  return [...new Set((withoutStrings.match(/\bdoable_[a-z0-9_]+/g) || []).map((name) => name.replace(SERIES_SUFFIX, '')))];
}

/**
 * Every metric name the code registers, from the source tree outside specs: a prom-client
 * `name: 'doable_...'`, or a constant named `..._METRIC` that holds one.
 */
function exportedMetricNames(root) {
  const names = new Set();
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.ts') && !/\.(spec|integration-spec|e2e-spec)\.ts$/.test(entry)) {
        for (const match of readFileSync(path, 'utf8').matchAll(/(?:name: |_METRIC = )'(doable_[a-z0-9_]+)'/g)) names.add(match[1]);
      }
    }
  };
  walk(join(root, 'libs'));
  return names;
}

/** Problems with a Grafana dashboard's JSON, and every PromQL expression its panels hold. */
function dashboardProblems(dashboard) {
  const problems = [];
  const expressions = [];
  if (typeof dashboard.title !== 'string' || typeof dashboard.uid !== 'string') problems.push('the dashboard needs a title and a uid');
  const ids = new Set();
  for (const panel of dashboard.panels || []) {
    if (ids.has(panel.id)) problems.push(`panel id ${panel.id} is used twice`);
    ids.add(panel.id);
    if (!panel.gridPos) problems.push(`panel ${panel.title}: no gridPos`);
    if (panel.type === 'row') continue;
    if (!Array.isArray(panel.targets) || panel.targets.length === 0) problems.push(`panel ${panel.title}: no targets`);
    for (const target of panel.targets || []) {
      if (typeof target.expr !== 'string' || !balanced(target.expr)) problems.push(`panel ${panel.title}: target ${target.refId} has no well-formed expr`);
      else expressions.push(target.expr);
    }
  }
  return { problems, expressions };
}

/** The metrics among `expressions` that the code does not export. */
function unknownMetrics(expressions, exported) {
  return [...new Set(expressions.flatMap(doableMetricsIn))].filter((name) => !exported.has(name));
}

module.exports = { ruleProblems, doableMetricsIn, exportedMetricNames, dashboardProblems, unknownMetrics };
