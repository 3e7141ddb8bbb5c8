import type { Provider } from '@nestjs/common';
import { ItemSource } from './sources/item.source';
import { ProjectSource } from './sources/project.source';
import { SectionSource } from './sources/section.source';
import { LabelSource } from './sources/label.source';
import { FilterSource } from './sources/filter.source';
import { NoteSource } from './sources/note.source';
import { LocationReminderSource, ReminderSource } from './sources/reminder.source';
import { LocationSource } from './sources/location.source';
import { CompletedInfoSource } from './sources/completed-info.source';
import { ProjectViewOptionsDefaultsSource, ViewOptionsSource } from './sources/view-options.source';
import { CollaboratorSource } from './sources/collaborator.source';
import { FolderSource, WorkspaceFilterSource, WorkspaceSource, WorkspaceUserSource } from './sources/workspace.source';
import { CollaboratorRepository } from '@doable/sync-domain';
import { MembershipChangesRepository } from './membership-changes.repository';
import { RESOURCE_SOURCES, type ResourceSource } from './sources/resource-source';

/**
 * Every resource the sync engine reads from its own tables, in response order. A new resource
 * type is one source class added here, and a writer in each dialect.
 */
const SOURCES = [
  ProjectSource,
  ItemSource,
  SectionSource,
  LabelSource,
  FilterSource,
  NoteSource,
  ReminderSource,
  LocationReminderSource,
  LocationSource,
  CompletedInfoSource,
  ViewOptionsSource,
  ProjectViewOptionsDefaultsSource,
  CollaboratorSource,
  WorkspaceSource,
  WorkspaceUserSource,
  FolderSource,
  WorkspaceFilterSource,
];

export const resourceProviders: Provider[] = [
  ...SOURCES,
  CollaboratorRepository,
  MembershipChangesRepository,
  { provide: RESOURCE_SOURCES, useFactory: (...sources: ResourceSource[]) => sources, inject: SOURCES },
];
