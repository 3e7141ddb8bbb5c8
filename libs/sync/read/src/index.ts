// The read side of sync: one source per resource type, the resource types, sync tokens and the
// reader that assembles a snapshot. Canonical rows, never a version's shape (tag sync:read).
export * from './membership-changes.repository';
export * from './read-needs';
export * from './resource-types';
export * from './resources';
export * from './sources/collaborator.source';
export * from './sources/item.source';
export * from './sources/note.source';
export * from './sources/project.source';
export * from './sources/resource-source';
export * from './sources/workspace.source';
export * from './sync-reader';
export * from './sync-snapshot';
export * from './sync-token';
export * from './task-filter.service';
