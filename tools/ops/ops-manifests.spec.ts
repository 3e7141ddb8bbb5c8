// The deployment files, checked as data: the Kubernetes manifests as kustomize renders them
// (base and the local overlay), docker-compose.yml and the Dockerfile's targets. Nothing runs a
// container; these assertions catch a missing probe, an unpinned image, a secret in the base or
// a service that starts before its schema exists. Needs kubectl on PATH (`kubectl kustomize`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PRODUCT_VERSION } from '@doable/shared-logging';
import { SERVICE_MALLOC_ENV, serviceNodeFlags } from '@doable/shared-runtime';
import { parse, parseAllDocuments } from 'yaml';

const repoRoot = resolve(__dirname, '..', '..');

const PORTS = { gateway: 8080, sync: 3001, rest: 3002, 'auth-oauth': 3003, uploads: 3004, notifications: 3005, plans: 3006, mcp: 3007, webhooks: 3008 } as const;
type App = keyof typeof PORTS;
const APPS = Object.keys(PORTS) as App[];
/** Services that own a PostgreSQL schema: they get DATABASE_URL and a migration step. */
const DATA_APPS: App[] = ['sync', 'auth-oauth', 'uploads', 'notifications', 'plans', 'webhooks'];
const STATELESS_APPS = APPS.filter((app) => !DATA_APPS.includes(app));
/** Deployments with a HorizontalPodAutoscaler: sync-events is sync's image in PROCESS_ROLE=events. */
const AUTOSCALED = ['gateway', 'sync', 'sync-events'];

// Only the fields these checks read.
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: { drop?: string[] };
}
interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: SecurityContext;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Container[]; securityContext?: SecurityContext; restartPolicy?: string; terminationGracePeriodSeconds?: number };
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    selector?: Record<string, string> & { matchLabels?: Record<string, string> };
    template?: PodTemplate;
    backoffLimit?: number;
    ttlSecondsAfterFinished?: number;
    scaleTargetRef?: { kind: string; name: string };
    minReplicas?: number;
    maxReplicas?: number;
    metrics?: Array<{ type: string; resource?: { name: string; target: { type: string; averageUtilization?: number } } }>;
  };
}

function kustomize(dir: string): K8sObject[] {
  let rendered: string;
  try {
    rendered = execFileSync('kubectl', ['kustomize', dir], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? '';
    throw new Error(`kubectl kustomize ${dir} failed (kubectl with kustomize v5 must be on PATH): ${(err as Error).message}\n${stderr}`);
  }
  const documents = parseAllDocuments(rendered);
  if (!Array.isArray(documents)) return [];
  for (const document of documents) {
    if (document.errors.length) throw new Error(`${dir}: ${document.errors.map(String).join('; ')}`);
  }
  return documents.map((document) => document.toJS() as K8sObject).filter(Boolean);
}

function find(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} named ${name}`);
  return found;
}

function podSpec(object: K8sObject): PodTemplate {
  const template = object.spec?.template;
  if (!template) throw new Error(`${object.kind}/${object.metadata.name} has no pod template`);
  return template;
}

function mainContainer(object: K8sObject, name: string): Container {
  const container = podSpec(object).spec.containers.find((candidate) => candidate.name === name);
  if (!container) throw new Error(`${object.kind}/${object.metadata.name} has no container ${name}`);
  return container;
}

function envVar(container: Container, name: string): EnvVar | undefined {
  return container.env?.find((variable) => variable.name === name);
}

function imageTag(image: string): string | undefined {
  const match = /^[^@]+:([^:/@]+)$/.exec(image);
  return match?.[1];
}

/** A selector matches a pod when every one of its labels is on the pod. */
function selects(selector: Record<string, string>, labels: Record<string, string> = {}): boolean {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

/** Requirements every Doable container meets, in a Deployment or a Job. */
function expectHardenedContainer(object: K8sObject, container: Container): void {
  const pod = podSpec(object).spec;
  expect(container.resources?.requests).toEqual(expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }));
  expect(container.resources?.limits).toEqual(expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }));
  expect(container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot).toBe(true);
  // uid 1000 is the `node` user the Dockerfile's runtime stage switches to.
  expect(container.securityContext?.runAsUser ?? pod.securityContext?.runAsUser).toBe(1000);
  expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
  expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
  expect(container.securityContext?.capabilities?.drop).toContain('ALL');
  const tag = imageTag(container.image);
  expect(tag).toBeDefined();
  expect(tag).not.toBe('latest');
}

describe('Kubernetes manifests (k8s/overlays/local)', () => {
  let objects: K8sObject[];

  beforeAll(() => {
    objects = kustomize('k8s/overlays/local');
  });

  const configMap = () => {
    const maps = objects.filter((object) => object.kind === 'ConfigMap' && object.metadata.name.startsWith('doable-config'));
    expect(maps).toHaveLength(1);
    return maps[0];
  };

  it('renders a Deployment and a Service for each of the seven services', () => {
    for (const app of APPS) {
      const deployment = find(objects, 'Deployment', app);
      const service = find(objects, 'Service', app);
      expect(deployment.metadata.labels).toEqual(expect.objectContaining({ 'app.kubernetes.io/name': app, 'app.kubernetes.io/part-of': 'doable' }));
      expect(selects(service.spec?.selector ?? {}, podSpec(deployment).metadata?.labels)).toBe(true);
    }
  });

  it.each(APPS)('%s: probes, resources, pinned image, non-root, config and metrics', (app) => {
    const deployment = find(objects, 'Deployment', app);
    const container = mainContainer(deployment, app);
    expectHardenedContainer(deployment, container);
    expect(container.image).toMatch(new RegExp(`^doable/${app}:`));

    expect(container.ports).toContainEqual(expect.objectContaining({ name: 'http', containerPort: PORTS[app] }));
    expect(envVar(container, 'PORT')?.value).toBe(String(PORTS[app]));
    expect(container.livenessProbe?.httpGet?.path).toBe('/health/live');
    expect(container.readinessProbe?.httpGet?.path).toBe('/health/ready');
    expect(container.startupProbe?.httpGet?.path).toBe('/health/live');
    for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe]) {
      expect([PORTS[app], 'http']).toContain(probe?.httpGet?.port);
    }

    expect(container.envFrom).toContainEqual({ configMapRef: { name: configMap().metadata.name } });
    expect(podSpec(deployment).metadata?.annotations).toEqual(
      expect.objectContaining({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(PORTS[app]), 'prometheus.io/path': '/metrics' }),
    );
  });

  it('shares NATS and logging settings through one ConfigMap and never migrates on start', () => {
    const data = configMap().data ?? {};
    expect(data.NATS_URL).toMatch(/^nats:\/\//);
    expect(data).toEqual(expect.objectContaining({ NATS_SUBJECT_PREFIX: expect.any(String), LOG_LEVEL: expect.any(String), REQUEST_TIMEOUT_MS: expect.any(String) }));
    expect(data.MIGRATE_ON_START).toBe('false');
    expect(data).not.toHaveProperty('DATABASE_URL');
  });

  it.each(APPS)('%s: the kubelet never SIGKILLs a stop (grace period above preStop plus STOP_TIMEOUT_MS)', (app) => {
    const deployment = find(objects, 'Deployment', app);
    const container = mainContainer(deployment, app);
    const command = container.lifecycle?.preStop?.exec?.command ?? [];
    const preStopSeconds = command[0] === 'sleep' ? Number(command[1]) : 0;
    // The gateway is the one a Service balances: endpoints must drop it before SIGTERM's drain starts.
    if (app === 'gateway') expect(preStopSeconds).toBeGreaterThan(0);
    const stopBoundSeconds = Number(configMap().data?.['STOP_TIMEOUT_MS']) / 1000;
    expect(stopBoundSeconds).toBeGreaterThan(0);
    expect(podSpec(deployment).spec.terminationGracePeriodSeconds).toBeGreaterThan(preStopSeconds + stopBoundSeconds);
  });

  it.each(DATA_APPS)('%s takes DATABASE_URL from the doable-database Secret', (app) => {
    const databaseUrl = envVar(mainContainer(find(objects, 'Deployment', app), app), 'DATABASE_URL');
    expect(databaseUrl?.value).toBeUndefined();
    const ref = databaseUrl?.valueFrom?.secretKeyRef;
    expect(ref?.key).toBe('DATABASE_URL');
    expect(ref?.name).toMatch(/^doable-database(-[a-z0-9]+)?$/);
    // The overlay supplies the Secret the reference points at.
    expect(find(objects, 'Secret', ref?.name ?? '').data).toHaveProperty('DATABASE_URL');
  });

  it.each(STATELESS_APPS)('%s (stateless) gets no DATABASE_URL', (app) => {
    expect(envVar(mainContainer(find(objects, 'Deployment', app), app), 'DATABASE_URL')).toBeUndefined();
  });

  it.each(DATA_APPS)('%s has a migration Job running its own image with ["migrate"]', (app) => {
    const job = find(objects, 'Job', `migrate-${app}`);
    const [container] = podSpec(job).spec.containers;
    expect(container.args).toEqual(['migrate']);
    expect(container.image).toBe(mainContainer(find(objects, 'Deployment', app), app).image);
    expect(envVar(container, 'DATABASE_URL')?.valueFrom?.secretKeyRef?.key).toBe('DATABASE_URL');
    expect(container.envFrom).toContainEqual({ configMapRef: { name: configMap().metadata.name } });
    expectHardenedContainer(job, container);
    expect(job.spec?.backoffLimit).toEqual(expect.any(Number));
    expect(job.spec?.ttlSecondsAfterFinished).toEqual(expect.any(Number));
    expect(['Never', 'OnFailure']).toContain(podSpec(job).spec.restartPolicy);
    // A Service must never route traffic to a migration pod.
    expect(selects(find(objects, 'Service', app).spec?.selector ?? {}, podSpec(job).metadata?.labels)).toBe(false);
  });

  it('has migration Jobs for the data services only', () => {
    const jobs = objects.filter((object) => object.kind === 'Job').map((job) => job.metadata.name);
    expect(jobs.sort()).toEqual(DATA_APPS.map((app) => `migrate-${app}`).sort());
  });

  it("runs sync's events in Deployment sync-events: sync's image and settings with PROCESS_ROLE=events, outside sync's Service, budget and spread", () => {
    const requests = find(objects, 'Deployment', 'sync');
    const events = find(objects, 'Deployment', 'sync-events');
    const [server, consumer] = [mainContainer(requests, 'sync'), mainContainer(events, 'sync')];
    expect(envVar(server, 'PROCESS_ROLE')?.value).toBe('requests');
    expect(envVar(consumer, 'PROCESS_ROLE')?.value).toBe('events');
    expectHardenedContainer(events, consumer);
    expect(consumer.image).toBe(server.image);
    expect(consumer.args).toEqual(['serve']);
    expect(consumer.envFrom).toEqual(server.envFrom);
    expect(envVar(consumer, 'DATABASE_URL')).toEqual(envVar(server, 'DATABASE_URL'));
    expect([consumer.readinessProbe?.httpGet?.path, consumer.livenessProbe?.httpGet?.path]).toEqual(['/health/ready', '/health/live']);
    expect(events.spec?.replicas).toBe(1);
    const labels = podSpec(events).metadata?.labels;
    expect(labels).toEqual(expect.objectContaining({ 'app.kubernetes.io/name': 'sync', 'app.kubernetes.io/component': 'events' }));
    // No Service and no budget of the request pods counts it: a client request never reaches it.
    for (const object of objects.filter((candidate) => ['Service', 'PodDisruptionBudget'].includes(candidate.kind) && candidate.metadata.name === 'sync')) {
      const selector = object.kind === 'Service' ? object.spec?.selector : object.spec?.selector?.matchLabels;
      expect(selects(selector ?? {}, labels)).toBe(false);
    }
    find(objects, 'PodDisruptionBudget', 'sync-events');
    const stopBoundSeconds = Number(configMap().data?.['STOP_TIMEOUT_MS']) / 1000;
    expect(podSpec(events).spec.terminationGracePeriodSeconds).toBeGreaterThan(stopBoundSeconds);
  });

  it('autoscales gateway, sync and sync-events on CPU (autoscaling/v2)', () => {
    const hpas = objects.filter((object) => object.kind === 'HorizontalPodAutoscaler');
    expect(hpas.map((hpa) => hpa.spec?.scaleTargetRef?.name).sort()).toEqual([...AUTOSCALED].sort());
    for (const hpa of hpas) {
      expect(hpa.apiVersion).toBe('autoscaling/v2');
      expect(hpa.spec?.scaleTargetRef?.kind).toBe('Deployment');
      expect(hpa.spec?.metrics).toContainEqual(expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu', target: expect.objectContaining({ type: 'Utilization' }) }) }));
      expect(hpa.spec?.minReplicas ?? 1).toBeLessThanOrEqual(hpa.spec?.maxReplicas ?? 0);
    }
  });

  it('runs one replica of each service and brings its own PostgreSQL and NATS with JetStream', () => {
    for (const app of APPS) expect(find(objects, 'Deployment', app).spec?.replicas).toBe(1);
    expect(mainContainer(find(objects, 'StatefulSet', 'postgres'), 'postgres').image).toMatch(/^postgres:15\.\d+/);
    expect(mainContainer(find(objects, 'Deployment', 'nats'), 'nats').args).toContain('-js');
    find(objects, 'Service', 'postgres');
    find(objects, 'Service', 'nats');
  });

  it('pins every image, infrastructure included', () => {
    const images = objects.flatMap((object) => object.spec?.template?.spec.containers.map((container) => container.image) ?? []);
    expect(images.length).toBeGreaterThan(APPS.length);
    for (const image of images) {
      expect(imageTag(image)).toBeDefined();
      expect(imageTag(image)).not.toBe('latest');
    }
  });
});

describe('Kubernetes manifests with a NATS cluster (k8s/overlays/local-nats-cluster, issue #48)', () => {
  const objects = kustomize('k8s/overlays/local-nats-cluster');

  it('runs NATS as three routed JetStream servers instead of the one-pod Deployment', () => {
    expect(objects.filter((object) => object.kind === 'Deployment' && object.metadata.name === 'nats')).toEqual([]);
    const nats = find(objects, 'StatefulSet', 'nats');
    expect(nats.spec?.replicas).toBe(3);
    const args = mainContainer(nats, 'nats').args ?? [];
    expect(args).toEqual(expect.arrayContaining(['-js', '--name', '$(POD_NAME)', '--cluster_name', '--routes']));
    const routes = args[args.indexOf('--routes') + 1].split(',');
    expect(routes).toEqual([0, 1, 2].map((n) => `nats://nats-${n}.nats-cluster:6222`));
    expect(find(objects, 'Service', 'nats-cluster').spec).toEqual(expect.objectContaining({ clusterIP: 'None', publishNotReadyAddresses: true }));
    // The client Service still selects the servers.
    expect(selects(find(objects, 'Service', 'nats').spec!.selector!, podSpec(nats).metadata?.labels)).toBe(true);
    expect(find(objects, 'PodDisruptionBudget', 'nats').spec).toEqual(expect.objectContaining({ maxUnavailable: 1 }));
    expect(podSecurity.restrictedViolations(objects)).toEqual([]);
  });

  it('gives every service the three servers and three copies of each stream', () => {
    const config = objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name.startsWith('doable-config'))!;
    expect(config.data?.NATS_URL?.split(',')).toEqual([0, 1, 2].map((n) => `nats://nats-${n}.nats-cluster:4222`));
    expect({ NATS_REPLICAS: config.data?.NATS_REPLICAS, STORAGE_REPLICAS: config.data?.STORAGE_REPLICAS }).toEqual({ NATS_REPLICAS: '3', STORAGE_REPLICAS: '3' });
  });

  it('lets the servers route to each other on 6222', () => {
    const routes = objects.find((object) => object.kind === 'NetworkPolicy' && object.metadata.name === 'nats-routes') as unknown as { spec: { ingress: unknown[]; egress: unknown[] } };
    const peers = [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'nats' } } }];
    expect(routes.spec.ingress).toEqual([{ from: peers, ports: [{ protocol: 'TCP', port: 6222 }] }]);
    expect(routes.spec.egress).toEqual([{ to: peers, ports: [{ protocol: 'TCP', port: 6222 }] }]);
  });
});

describe('Kubernetes base (k8s/base)', () => {
  it('holds no Secret: credentials come from the overlay or a secret store', () => {
    const objects = kustomize('k8s/base');
    expect(objects.filter((object) => object.kind === 'Secret')).toEqual([]);
    const refs = objects
      .flatMap((object) => object.spec?.template?.spec.containers ?? [])
      .flatMap((container) => container.env ?? [])
      .filter((variable) => variable.name === 'DATABASE_URL');
    expect(refs).toHaveLength(DATA_APPS.length * 2 + 1); // each data service's Deployment and Job, and sync-events
    for (const variable of refs) expect(variable.valueFrom?.secretKeyRef).toEqual({ name: 'doable-database', key: 'DATABASE_URL' });
  });
});

interface ComposeService {
  image?: string;
  build?: { context: string; target?: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  restart?: string;
}

describe('docker-compose.yml', () => {
  // `merge: true` resolves the `<<:` keys the file uses to share environment and settings.
  const compose = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
  const services = compose.services;

  it("defines postgres, nats, migrate, the services, and sync's events beside sync", () => {
    expect(Object.keys(services).sort()).toEqual([...APPS, 'migrate', 'nats', 'postgres', 'sync-events'].sort());
  });

  it('runs sync-events as sync, built from the same target, with PROCESS_ROLE=events (sync answers requests)', () => {
    const [sync, events] = [services.sync, services['sync-events']];
    expect([sync.environment?.PROCESS_ROLE, events.environment?.PROCESS_ROLE]).toEqual(['requests', 'events']);
    expect([events.build?.target, events.image]).toEqual([sync.build?.target, sync.image]);
    expect(events.environment?.DATABASE_URL).toBe(sync.environment?.DATABASE_URL);
    expect(events.depends_on).toEqual(sync.depends_on);
    expect(events.healthcheck?.test.join(' ')).toContain('/health/ready');
    expect(events.ports ?? []).toEqual([]);
  });

  it.each(APPS)('%s: built from its Dockerfile target, health-checked on /health/ready, restarted', (app) => {
    const service = services[app];
    expect(service.build?.target).toBe(app);
    expect(service.image).toBe(`doable/${app}:\${DOABLE_VERSION:-${PRODUCT_VERSION}}`);
    expect(service.healthcheck?.test.join(' ')).toContain('/health/ready');
    expect(service.restart).toBe('unless-stopped');
    expect(service.environment?.NATS_URL).toBe('nats://nats:4222');
    expect(service.environment?.MIGRATE_ON_START).toBe('false');
    expect(service.depends_on?.nats).toEqual({ condition: 'service_healthy' });
  });

  it.each(DATA_APPS)('%s waits for a healthy postgres and a completed migrate', (app) => {
    const service = services[app];
    expect(service.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
    expect(service.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    // Credentials only through variables with local defaults, never a literal password.
    expect(service.environment?.DATABASE_URL).toMatch(/^postgres:\/\/\$\{POSTGRES_USER:-[^}]+\}:\$\{POSTGRES_PASSWORD:-[^}]+\}@postgres:5432\//);
  });

  it.each(STATELESS_APPS)('%s (stateless) has no database settings', (app) => {
    expect(services[app].environment).not.toHaveProperty('DATABASE_URL');
    expect(services[app].depends_on).not.toHaveProperty('migrate');
  });

  it('publishes only the gateway', () => {
    const published = Object.entries(services)
      .filter(([, service]) => service.ports?.length)
      .map(([name]) => name);
    expect(published).toEqual(['gateway']);
    expect(services.gateway.ports?.every((port) => port.endsWith(':8080'))).toBe(true);
  });

  it('runs migrations once, before the data services, against a healthy postgres', () => {
    const migrate = services.migrate;
    expect(migrate.build?.target).toBe('migrate');
    expect(migrate.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
    expect(migrate.environment?.DATABASE_URL).toBe(services.sync.environment?.DATABASE_URL);
    expect(migrate.restart ?? 'no').toBe('no');
  });

  it('health-checks postgres and a JetStream-enabled nats', () => {
    expect(services.postgres.healthcheck?.test.join(' ')).toContain('pg_isready');
    expect(services.nats.command).toEqual(expect.arrayContaining(['-js']));
    expect(services.nats.healthcheck?.test.join(' ')).toContain('8222');
    for (const name of ['postgres', 'nats']) {
      const tag = imageTag(services[name].image ?? '');
      expect(tag).toMatch(/^\d+\.\d+/);
    }
  });
});

describe('docker-compose.nats-cluster.yml (issue #48)', () => {
  const cluster = parse(readFileSync(join(repoRoot, 'docker-compose.nats-cluster.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
  const base = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };

  it('runs three routed JetStream servers, each on its own volume', () => {
    const servers = ['nats', 'nats-2', 'nats-3'];
    for (const [index, name] of servers.entries()) {
      const command = cluster.services[name].command ?? [];
      expect(command).toEqual(expect.arrayContaining(['-js', '--name', `nats-${index + 1}`, '--cluster_name', 'doable']));
      expect(command[command.indexOf('--routes') + 1].split(',')).toEqual(servers.map((server) => `nats://${server}:6222`));
    }
    expect([cluster.services['nats-2'].volumes, cluster.services['nats-3'].volumes]).toEqual([['nats-2-data:/data'], ['nats-3-data:/data']]);
  });

  it('gives every service of docker-compose.yml the three servers and three copies', () => {
    const services = Object.keys(base.services).filter((name) => base.services[name].environment?.NATS_URL);
    expect(services.length).toBeGreaterThan(APPS.length);
    for (const name of services) {
      expect([name, cluster.services[name]?.environment]).toEqual([name, { NATS_URL: 'nats://nats:4222,nats://nats-2:4222,nats://nats-3:4222', NATS_REPLICAS: '3', STORAGE_REPLICAS: '3' }]);
    }
  });
});

describe('Dockerfile', () => {
  // Instructions per stage, continuation lines joined.
  const stages = new Map<string, string[]>();
  let current: string[] = [];
  const text = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  for (const line of text.split('\n').map((raw) => raw.trim())) {
    if (!line || line.startsWith('#')) continue;
    const from = /^FROM\s+\S+\s+AS\s+(\S+)$/i.exec(line);
    if (from) {
      current = [];
      stages.set(from[1], current);
    }
    current.push(line);
  }

  it('has a target per service that runs its dist entry point as a non-root user', () => {
    expect(stages.get('runtime')).toEqual(expect.arrayContaining(['USER node', 'ENV NODE_ENV=production']));
    expect(stages.get('runtime')?.some((line) => line.startsWith('HEALTHCHECK') && line.includes('/health/live'))).toBe(true);
    // Every service image starts with the allocator settings every other launcher gives it (SERVICE_MALLOC_ENV).
    expect(stages.get('runtime')).toContain(`ENV ${Object.entries(SERVICE_MALLOC_ENV).map(([name, value]) => `${name}=${value}`).join(' ')}`);
    for (const app of APPS) {
      const stage = stages.get(app) ?? [];
      expect(stage[0]).toBe(`FROM runtime AS ${app}`);
      expect(stage).toContain(`EXPOSE ${PORTS[app]}`);
      // With the node flags every other launcher gives the service (shared-runtime's serviceNodeFlags).
      const entrypoint = ['node', ...serviceNodeFlags(app), `dist/apps/${app}/src/main.js`];
      expect(stage).toContain(`ENTRYPOINT [${entrypoint.map((part) => JSON.stringify(part)).join(', ')}]`);
      expect(stage).toContain('CMD ["serve"]');
    }
  });

  // Docker silently runs an exec-form instruction whose JSON is invalid as a shell string.
  it('writes every exec-form ENTRYPOINT, CMD and HEALTHCHECK as valid JSON', () => {
    const execForms = [...stages.values()].flat().flatMap((line) => {
      const match = /^(?:ENTRYPOINT|CMD|HEALTHCHECK\s.*?\bCMD)\s+(\[.*)$/.exec(line);
      return match ? [match[1]] : [];
    });
    expect(execForms.length).toBeGreaterThanOrEqual(APPS.length * 2 + 1);
    for (const form of execForms) expect(() => JSON.parse(form) as unknown).not.toThrow();
  });

  it('migrates exactly the data services in its migrate target', () => {
    const cmd = (stages.get('migrate') ?? []).find((line) => line.startsWith('CMD '));
    expect(JSON.parse(cmd?.slice(4) ?? 'null')).toEqual(DATA_APPS);
  });

  it('pins its base image by version', () => {
    expect(text).toMatch(/^ARG NODE_IMAGE=node:20\.\d+(\.\d+)?-bookworm-slim$/m);
  });
});

// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS on purpose: ops:check (ESM, no build) loads the same file.
const podSecurity = require('./pod-security.cjs') as { restrictedViolations(objects: unknown[]): string[]; hasDefaultDeny(objects: unknown[]): boolean };

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}
interface PolicyRule {
  from?: unknown[];
  to?: Array<{ ipBlock?: { cidr: string; except?: string[] } }>;
  ports?: Array<{ protocol?: string; port: number }>;
}
interface NetworkPolicy {
  metadata: { name: string };
  spec: { podSelector: LabelSelector; policyTypes: string[]; ingress?: PolicyRule[]; egress?: PolicyRule[] };
}

/** Kubernetes label selector semantics, for the operators these manifests use (In). */
function selectorMatches(selector: LabelSelector, labels: Record<string, string> = {}): boolean {
  if (!selects(selector.matchLabels ?? {}, labels)) return false;
  return (selector.matchExpressions ?? []).every((expression) => {
    if (expression.operator !== 'In') throw new Error(`selector operator ${expression.operator} is not modelled here`);
    return (expression.values ?? []).includes(labels[expression.key]);
  });
}

describe('network policies and pod security (issue #34)', () => {
  const base = kustomize('k8s/base');
  const local = kustomize('k8s/overlays/local');
  const policies = (objects: K8sObject[]) => objects.filter((object) => object.kind === 'NetworkPolicy') as unknown as NetworkPolicy[];
  const podLabels = (objects: K8sObject[], kind: string, name: string) => podSpec(find(objects, kind, name)).metadata?.labels ?? {};
  /** The ports a pod may open connections to, DNS aside: every egress rule of every policy that selects it. */
  const egressPorts = (objects: K8sObject[], labels: Record<string, string>) =>
    [...new Set(policies(objects).filter((policy) => selectorMatches(policy.spec.podSelector, labels)).flatMap((policy) => (policy.spec.egress ?? []).flatMap((rule) => (rule.ports ?? []).map((port) => port.port))))]
      .filter((port) => port !== 53)
      .sort((a, b) => a - b);
  const ingressRules = (objects: K8sObject[], labels: Record<string, string>) => policies(objects).filter((policy) => selectorMatches(policy.spec.podSelector, labels)).flatMap((policy) => policy.spec.ingress ?? []);

  it('run every pod of the base and the local overlay under the restricted standard with a read-only root', () => {
    expect(podSecurity.restrictedViolations(base)).toEqual([]);
    expect(podSecurity.restrictedViolations(local)).toEqual([]);
  });

  it('catch a container that drops the read-only root or runs as root (so ops:check can fail)', () => {
    const gateway = structuredClone(find(base, 'Deployment', 'gateway'));
    const container = podSpec(gateway).spec.containers[0];
    delete container.securityContext?.readOnlyRootFilesystem;
    container.securityContext = { ...container.securityContext, runAsNonRoot: false };
    expect(podSecurity.restrictedViolations([gateway])).toEqual(['Deployment/gateway: gateway: runAsNonRoot is not true', 'Deployment/gateway: gateway: readOnlyRootFilesystem is not true']);
  });

  it('deny all traffic in the namespace unless a policy allows it', () => {
    expect(podSecurity.hasDefaultDeny(base)).toBe(true);
    expect(podSecurity.hasDefaultDeny(policies(base).filter((policy) => policy.metadata.name !== 'default-deny'))).toBe(false);
  });

  it('let each service reach NATS, the data services and their migrations PostgreSQL, and webhooks the internet on 443 only', () => {
    const expected: Record<App, number[]> = {
      gateway: [4222],
      sync: [4222, 5432],
      rest: [4222],
      'auth-oauth': [4222, 5432],
      uploads: [4222, 5432],
      notifications: [4222, 5432],
      plans: [4222, 5432],
      mcp: [4222],
      webhooks: [443, 4222, 5432],
    };
    for (const app of APPS) expect([app, egressPorts(base, podLabels(base, 'Deployment', app))]).toEqual([app, expected[app]]);
    for (const app of DATA_APPS) expect([app, egressPorts(base, podLabels(base, 'Job', `migrate-${app}`))]).toEqual([app, [5432]]);
    const internet = policies(base).find((policy) => policy.metadata.name === 'webhooks-to-internet')!;
    expect(internet.spec.egress?.[0].to?.[0].ipBlock?.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']));
  });

  it('let only the gateway in from anywhere, and the monitoring namespace scrape every service', () => {
    for (const app of APPS) {
      const rules = ingressRules(base, podLabels(base, 'Deployment', app));
      const open = rules.filter((rule) => rule.from === undefined);
      expect([app, open.flatMap((rule) => (rule.ports ?? []).map((port) => port.port))]).toEqual([app, app === 'gateway' ? [8080] : []]);
      expect([app, rules.some((rule) => JSON.stringify(rule.from ?? []).includes('monitoring') && (rule.ports ?? []).some((port) => port.port === PORTS[app]))]).toEqual([app, true]);
    }
  });

  it('let the local overlay enforce the standard on its namespace and open its PostgreSQL to the data services alone', () => {
    expect(find(local, 'Namespace', 'doable').metadata.labels).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'restricted' });
    const postgres = ingressRules(local, podLabels(local, 'StatefulSet', 'postgres'));
    const admitted = APPS.filter((app) => postgres.some((rule) => (rule.from as Array<{ podSelector?: LabelSelector }> | undefined)?.some((peer) => peer.podSelector && selectorMatches(peer.podSelector, podLabels(local, 'Deployment', app)))));
    expect(admitted.sort()).toEqual([...DATA_APPS].sort());
  });
});

// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS on purpose, as pod-security.cjs.
const monitoring = require('./monitoring-checks.cjs') as {
  ruleProblems(document: unknown): string[];
  dashboardProblems(dashboard: unknown): { problems: string[]; expressions: string[] };
  exportedMetricNames(root: string): Set<string>;
  unknownMetrics(expressions: string[], exported: Set<string>): string[];
};

describe('monitoring (k8s/components/monitoring, issue #34)', () => {
  const dir = join(repoRoot, 'k8s/components/monitoring');
  const plain = parse(readFileSync(join(dir, 'doable-alerts.rules.yaml'), 'utf8')) as { groups: Array<{ name: string; rules: Array<{ alert: string; expr: string }> }> };
  const operator = parse(readFileSync(join(dir, 'prometheus-rule.yaml'), 'utf8')) as { kind: string; spec: { groups: unknown } };
  const dashboard = JSON.parse(readFileSync(join(dir, 'dashboards/doable-overview.json'), 'utf8')) as unknown;
  const exported = monitoring.exportedMetricNames(repoRoot);

  it('ships well-formed alert rules, the same for the Prometheus Operator and a plain Prometheus', () => {
    expect(monitoring.ruleProblems(plain)).toEqual([]);
    expect(operator.kind).toBe('PrometheusRule');
    expect(operator.spec.groups).toEqual(plain.groups);
    const alerts = plain.groups.flatMap((group) => group.rules.map((rule) => rule.alert));
    expect(alerts).toEqual(expect.arrayContaining(['DoableServerErrors', 'DoableOutboxLagging', 'DoableConsumerLagging', 'DoableReplicasMissing', 'DoableDatabaseUnreachable', 'DoableBrokerUnreachable']));
  });

  it('names in its rules and dashboard only metrics the code exports', () => {
    const { problems, expressions } = monitoring.dashboardProblems(dashboard);
    expect(problems).toEqual([]);
    expect(expressions.length).toBeGreaterThan(10);
    expect(exported.has('doable_outbox_lag_seconds')).toBe(true);
    expect(monitoring.unknownMetrics([...plain.groups.flatMap((group) => group.rules.map((rule) => rule.expr)), ...expressions], exported)).toEqual([]);
  });

  it('catches a rule naming a metric no code exports, without a severity, or with unbalanced brackets', () => {
    expect(monitoring.unknownMetrics(['sum(rate(doable_not_a_metric_total[5m]))', 'histogram_quantile(0.9, rate(doable_http_request_seconds_bucket[5m]))'], exported)).toEqual(['doable_not_a_metric_total']);
    const broken = { groups: [{ name: 'g', rules: [{ alert: 'A', expr: 'sum(rate(x[5m])', for: '5 minutes', labels: {}, annotations: {} }] }] };
    expect(monitoring.ruleProblems(broken)).toEqual([
      'group g, A: unbalanced brackets in expr',
      'group g, A: for is not a duration (5 minutes)',
      'group g, A: labels.severity is not one of critical, warning, info',
      'group g, A: no annotations.summary',
    ]);
  });
});
