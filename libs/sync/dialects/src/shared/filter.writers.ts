import type { FilterRow } from '@doable/sync-domain';
import { FILTER_FIELDS } from '@doable/contracts-sync';
import { fieldRowWriter, type Reads, type ReadsRow } from './field-writer';

/** Each field the filter writers read is a field of the stored filter: a compile error otherwise. */
export type FilterTableReadsFilters = Reads<ReadsRow<FilterRow, typeof FILTER_FIELDS>>;

/** A filter with every key the SDKs' sync filter schema requires, and its description, from the filter field table. */
export const writeApiV1Filter = fieldRowWriter<FilterRow>(FILTER_FIELDS, 'apiV1');
/** The v9 filter, from the filter field table (no description). */
export const writeV9Filter = fieldRowWriter<FilterRow>(FILTER_FIELDS, 'v9');
