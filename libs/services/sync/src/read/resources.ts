import type { Provider } from '@nestjs/common';
import { ItemSource } from '../items/item.source';
import { ProjectSource } from '../projects/project.source';
import { SectionSource } from '../sections/section.source';
import { LabelSource } from '../labels/label.source';
import { FilterSource } from '../filters/filter.source';
import { NoteSource } from '../notes/note.source';
import { LocationReminderSource, ReminderSource } from '../reminders/reminder.source';
import { LocationSource } from '../locations/location.source';
import { CompletedInfoSource } from '../completed/completed-info.source';
import { ProjectViewOptionsDefaultsSource, ViewOptionsSource } from '../view-options/view-options.source';
import { RESOURCE_SOURCES, type ResourceSource } from './resource-source';

/**
 * Every resource the sync engine reads from its own tables, in response order. A new resource
 * type is one source class added here (and to `providers`).
 */
const SOURCES = [ProjectSource, ItemSource, SectionSource, LabelSource, FilterSource, NoteSource, ReminderSource, LocationReminderSource, LocationSource, CompletedInfoSource, ViewOptionsSource, ProjectViewOptionsDefaultsSource];

export const resourceProviders: Provider[] = [
  ...SOURCES,
  { provide: RESOURCE_SOURCES, useFactory: (...sources: ResourceSource[]) => sources, inject: SOURCES },
];
