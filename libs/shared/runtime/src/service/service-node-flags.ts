import type { ServiceName } from './service-definition';

/**
 * V8 flags a service's process starts with: wherever it is started as deployed (the Dockerfile's
 * ENTRYPOINT, which k8s and compose run, `npm run start:cluster`, the bench's cluster). Keep the
 * Dockerfile's lines equal to these; node refuses them in NODE_OPTIONS.
 *
 * `--initial-old-space-size` for the services that pass long answers through as text (the
 * gateway and rest carry REST task lists of ~450 KB): besides the first old-space limit, it sets
 * the floor below which V8 never plans a full collection. Without it, once V8 has timed a few
 * full collections it sizes the old generation to about 1.1x the live heap (~40 MB here), and
 * each answer's text (a large object, allocated in the old generation) uses up that headroom in
 * a few requests: a full collection of the whole heap every 10-20 requests. A fresh process has
 * not timed one yet and starts with a large first limit, so the cost grew with the process's
 * age: in the bench's whole suite (S5 after S1-S4) the gateway spent 37% of its CPU in GC and 11-16
 * ms per request, against 5% and 4.5 ms in a fresh process; with the floor, 5% and 4.6 ms in the
 * whole suite (docs/performance/s5-filter.md). The price is RSS: up to the floor of old space before the
 * first full collection, within the k8s manifests' limits (gateway 512 MiB, rest 384 MiB).
 */
const FLAGS: Readonly<Partial<Record<ServiceName, readonly string[]>>> = {
  gateway: ['--initial-old-space-size=128'],
  rest: ['--initial-old-space-size=128'],
};

export function serviceNodeFlags(service: ServiceName): readonly string[] {
  return FLAGS[service] ?? [];
}
