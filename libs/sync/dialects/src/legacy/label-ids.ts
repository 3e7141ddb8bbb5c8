import type { LabelRow } from '@doable/sync-domain';
import { integerId } from './legacy-values';

/** Lower-cased label name to label id: how a task's labels (names in the domain) become the old generations' ids. */
export type LabelIdLookup = ReadonlyMap<string, string>;

/** The lookup of a user's personal labels (active ones: a deleted label's name is no longer its). */
export function labelIdLookup(labels: readonly LabelRow[]): LabelIdLookup {
  return new Map(labels.filter((label) => !label.is_deleted).map((label) => [label.name.toLowerCase(), label.id]));
}

/**
 * A task's labels as v8, v7 and v6 wrote them: the integer ids of the user's personal labels. A
 * name that is no personal label (a shared label, v9's notion) has no id to give and is left out.
 */
export function labelIdsOf(names: readonly string[], lookup: LabelIdLookup): number[] {
  const ids: number[] = [];
  for (const name of names) {
    const id = lookup.get(name.toLowerCase());
    if (id !== undefined) ids.push(integerId(id));
  }
  return ids;
}
