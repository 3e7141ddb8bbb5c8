#!/usr/bin/env node
// `npm run ops:check`: proves the deployment files parse and build, without a container engine.
// Renders both kustomizations and validates the compose file; prints what passed, and on the
// first failure prints that tool's output and exits non-zero.
// (Deeper assertions over the rendered manifests: tools/ops/ops-manifests.spec.ts.)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import monitoring from '../ops/monitoring-checks.cjs';
import podSecurity from '../ops/pod-security.cjs';
import { repoRoot } from './swc-options.mjs';

function run(command, args) {
  return spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
}

function available(command, args) {
  const result = run(command, args);
  return !result.error && result.status === 0;
}

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** The compose CLI: the standalone `docker-compose`, else the `docker compose` plugin. */
function composeCommand() {
  if (available('docker-compose', ['version'])) return ['docker-compose'];
  if (available('docker', ['compose', 'version'])) return ['docker', 'compose'];
  return fail(
    'ops:check needs docker-compose to validate docker-compose.yml, and it is not installed.\n' +
      '  Debian/Ubuntu: apt-get install -y docker-compose\n' +
      '  (or install the Docker Compose plugin, which provides `docker compose`)',
  );
}

if (!available('kubectl', ['version', '--client'])) {
  fail('ops:check needs kubectl (for `kubectl kustomize`), and it is not installed: https://kubernetes.io/docs/tasks/tools/');
}
const compose = composeCommand();

const checks = [
  { label: 'kubectl kustomize k8s/base', command: 'kubectl', args: ['kustomize', 'k8s/base'], kustomize: true },
  { label: 'kubectl kustomize k8s/overlays/local', command: 'kubectl', args: ['kustomize', 'k8s/overlays/local'], kustomize: true },
  { label: 'kubectl kustomize k8s/overlays/local-monitoring', command: 'kubectl', args: ['kustomize', 'k8s/overlays/local-monitoring'], kustomize: true },
  { label: 'kubectl kustomize k8s/overlays/local-nats-cluster', command: 'kubectl', args: ['kustomize', 'k8s/overlays/local-nats-cluster'], kustomize: true },
  {
    label: `${compose.join(' ')} -f docker-compose.yml config -q`,
    command: compose[0],
    args: [...compose.slice(1), '-f', 'docker-compose.yml', 'config', '-q'],
  },
  {
    label: `${compose.join(' ')} -f docker-compose.yml -f docker-compose.nats-cluster.yml config -q`,
    command: compose[0],
    args: [...compose.slice(1), '-f', 'docker-compose.yml', '-f', 'docker-compose.nats-cluster.yml', 'config', '-q'],
  },
];

for (const check of checks) {
  const result = run(check.command, check.args);
  if (result.error || result.status !== 0) {
    const output = [result.stdout, result.stderr, result.error?.message].filter(Boolean).join('\n').trim();
    fail(`FAIL  ${check.label} (exit ${result.status ?? 'n/a'})\n${output}`);
  }
  // How many objects a kustomization renders: a quick sanity line, not an assertion.
  const detail = check.kustomize ? ` (${(result.stdout.match(/^kind: /gm) ?? []).length} resources)` : '';
  console.log(`ok    ${check.label}${detail}`);
  if (check.kustomize) checkPolicies(check.label, result.stdout);
}

/** Every pod `restricted` with a read-only root, and the namespace's default deny (tools/ops/pod-security.cjs). */
function checkPolicies(label, rendered) {
  const objects = parseAllDocuments(rendered).map((document) => document.toJS()).filter(Boolean);
  const violations = podSecurity.restrictedViolations(objects);
  if (violations.length > 0) fail(`FAIL  ${label}: pods outside the restricted Pod Security Standard\n  ${violations.join('\n  ')}`);
  if (!podSecurity.hasDefaultDeny(objects)) fail(`FAIL  ${label}: no default-deny NetworkPolicy (podSelector {}, Ingress and Egress, no rules)`);
  console.log(`ok    ${label}: every pod restricted with a read-only root; default-deny NetworkPolicy present`);
}
checkMonitoring();
console.log('ops:check passed');

/**
 * The alert rules (plain file and PrometheusRule alike) and the dashboard well formed, and every
 * Doable metric they name exported by the code (tools/ops/monitoring-checks.cjs).
 */
function checkMonitoring() {
  const dir = join(repoRoot, 'k8s/components/monitoring');
  const plain = parse(readFileSync(join(dir, 'doable-alerts.rules.yaml'), 'utf8'));
  const operator = parse(readFileSync(join(dir, 'prometheus-rule.yaml'), 'utf8'));
  const problems = monitoring.ruleProblems(plain);
  if (JSON.stringify(operator?.spec?.groups) !== JSON.stringify(plain?.groups)) problems.push('prometheus-rule.yaml holds other groups than doable-alerts.rules.yaml: edit both');
  const dashboard = monitoring.dashboardProblems(JSON.parse(readFileSync(join(dir, 'dashboards/doable-overview.json'), 'utf8')));
  problems.push(...dashboard.problems);
  const expressions = [...plain.groups.flatMap((group) => group.rules.map((rule) => rule.expr)), ...dashboard.expressions];
  const unknown = monitoring.unknownMetrics(expressions, monitoring.exportedMetricNames(repoRoot));
  if (unknown.length > 0) problems.push(`metrics no code exports: ${unknown.join(', ')}`);
  if (problems.length > 0) fail(`FAIL  k8s/components/monitoring\n  ${problems.join('\n  ')}`);
  // Prometheus's own parser, where it is installed (Debian: apt-get install prometheus).
  if (available('promtool', ['--version'])) {
    const checked = run('promtool', ['check', 'rules', 'k8s/components/monitoring/doable-alerts.rules.yaml']);
    if (checked.status !== 0) fail(`FAIL  promtool check rules\n${checked.stdout}${checked.stderr}`);
    console.log('ok    promtool check rules k8s/components/monitoring/doable-alerts.rules.yaml');
  } else {
    console.log('skip  promtool is not installed (apt-get install prometheus): the checks below stand in for it');
  }
  const alerts = plain.groups.reduce((sum, group) => sum + group.rules.length, 0);
  console.log(`ok    k8s/components/monitoring: ${alerts} alert rules (plain and PrometheusRule alike), ${expressions.length - alerts} dashboard queries, every metric exported`);
}
