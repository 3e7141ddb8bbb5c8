import type { SectionRow } from '@doable/sync-domain';
import { type ApiSection, SECTION_FIELDS } from '@doable/contracts-sync';
import { fieldRowWriter, type Reads, type ReadsRow } from './field-writer';

/** Each field the section writers read is a field of the stored section: a compile error otherwise. */
export type SectionTableReadsSections = Reads<ReadsRow<SectionRow, typeof SECTION_FIELDS>>;

/** The api/v1 section (sync and REST), from the section field table; its keys are ApiSection's (ApiSectionFollowsTheTable). */
export const writeApiV1Section = fieldRowWriter<SectionRow>(SECTION_FIELDS, 'apiV1') as (section: SectionRow) => ApiSection;
/** The v9 section, from the section field table: `collapsed`, `sync_id`, no `updated_at`. */
export const writeV9Section = fieldRowWriter<SectionRow>(SECTION_FIELDS, 'v9');
