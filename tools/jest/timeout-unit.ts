// Jest reads `testTimeout` only from the root config, not per project: the tiers set theirs here.
// A hang guard, not a speed bound. A unit file may run in a worker that also holds the e2e tier's
// shared systems (a heap of gigabytes to collect) on a loaded machine: at load 20, a local
// HTTP round trip and two forced full collections each outran Jest's default 5 s.
jest.setTimeout(30_000);
