import type { ProjectRow } from '@doable/sync-domain';
import { type ApiProject, PROJECT_FIELDS } from '@doable/contracts-sync';
import { fieldRowWriter, type Reads, type ReadsRow } from './field-writer';

/** Each field the project writers read is a field of the stored project: a compile error otherwise. */
export type ProjectTableReadsProjects = Reads<ReadsRow<ProjectRow, typeof PROJECT_FIELDS>>;

/** The api/v1 project (sync and REST), from the project field table; its keys are ApiProject's (ApiProjectFollowsTheTable). */
export const writeApiV1Project = fieldRowWriter<ProjectRow>(PROJECT_FIELDS, 'apiV1') as (project: ProjectRow) => ApiProject;
/** The v9 project, from the project field table: `collapsed`, `shared`, no timestamps. */
export const writeV9Project = fieldRowWriter<ProjectRow>(PROJECT_FIELDS, 'v9');
