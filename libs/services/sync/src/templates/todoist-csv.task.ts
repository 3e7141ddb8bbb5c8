import { parseTodoistCsv, type TemplateTree } from './todoist-csv';

/** This module, as a CPU pool task (the runner adds `.js` from dist/ or `.ts` from the sources). */
export const TODOIST_CSV_TASK = __filename.replace(/\.(js|ts)$/, '');

/**
 * A template's CSV into its tree, on a pool thread: text in (at most the inline megabyte), a
 * tree of at most `maxRows` rows out. Sliced parsing on the event loop still shares the loop
 * round-robin with every other request, so eight templates at once slow each hop of everyone
 * else's requests; on a pool thread they slow no one.
 */
export function run(input: { text: string; maxRows: number }): Promise<TemplateTree> {
  return parseTodoistCsv(input.text, { maxRows: input.maxRows });
}
