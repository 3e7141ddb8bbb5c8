export { type AnySubject, contractCatalogue } from './contract-catalogue';
export { type ContractRecord, currentContracts, type JsonSchema, jsonSchemaOf, type SubjectRecord } from './contract-snapshot';
export { type BreakingChange, breakingChanges, type BreakingRule, type MessagePart } from './breaking-changes';
export { compareVersions, parseVersion, readReleaseRecords, type ReleaseRecord, releasesToKeep } from './release-files';
