// Jest reads `testTimeout` only from the root config, not per project: the tiers set theirs here.
jest.setTimeout(30_000);
