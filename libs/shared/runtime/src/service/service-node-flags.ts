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

/**
 * glibc's allocator settings every service process starts with, from the same launchers (the
 * Dockerfile's runtime stage sets them as ENV for every service image; keep it equal to these).
 * glibc reads them when the process starts, so they cannot be set from inside it.
 *
 * A full sync's answer crosses the gateway as megabyte buffers (the NATS slices, the HTTP body),
 * allocated outside V8's heap by malloc. By default glibc maps a block that large on its own and
 * unmaps it when freed, and gives back the top of its heap once more than about twice the last
 * such block is free: every answer then writes pages the kernel must hand out again. On a VM slow
 * to do so (a fresh 4 MiB buffer written in 10 ms against 0.06 ms reused: bench RESULTS.md's
 * machine table) that was a quarter of the gateway's CPU per 3 MB full sync (bench S3: 22-29 ms in
 * five runs without these settings, 15-22 in four with them). Blocks under 32 MiB now come from
 * the heap, and up to 64 MiB of it stays with the process once free, to be written again without
 * a fault. The price is RSS a process keeps after a burst (sync's peak in S3 did not move), within
 * the k8s manifests' limits (384-512 MiB).
 */
export const SERVICE_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: String(32 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(64 * 1024 * 1024),
};
