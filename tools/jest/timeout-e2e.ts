// Jest reads `testTimeout` only from the root config, not per project: the tiers set theirs here.
// End-to-end hooks boot whole systems, which on two shared cores can take many seconds.
jest.setTimeout(120_000);
