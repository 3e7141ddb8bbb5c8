import type { LabelRow } from '@doable/sync-domain';
import { type ApiLabel, LABEL_FIELDS } from '@doable/contracts-sync';
import { fieldRowWriter, type Reads, type ReadsRow } from './field-writer';

/** Each field the label writers read is a field of the stored label: a compile error otherwise. */
export type LabelTableReadsLabels = Reads<ReadsRow<LabelRow, typeof LABEL_FIELDS>>;

/**
 * The api/v1 label (sync), from the label field table: the unified API documents `item_order`
 * and the v1 SDKs' schema requires `order`, so both are written (the SDK drops keys it does not
 * know). Its keys are ApiLabel's (ApiLabelFollowsTheTable).
 */
export const writeApiV1Label = fieldRowWriter<LabelRow>(LABEL_FIELDS, 'apiV1') as (label: LabelRow) => ApiLabel;
/** The v9 label, from the label field table. */
export const writeV9Label = fieldRowWriter<LabelRow>(LABEL_FIELDS, 'v9');
