// Jest reads `testTimeout` only from the root config, not per project: the tiers set theirs here.
// A hang guard, not a speed bound: the suite must pass on a loaded machine (issue #45), where
// the generated walks over PostgreSQL took over 30 s at load 20 (about 10 s quiet).
jest.setTimeout(90_000);
