/**
 * The first generation's `query` call took a JSON list of searches, each answered on its own as
 * `{query, type, data}` (v5.3 help: `["tomorrow","p1"]` answered types `date` and `priority`).
 * Each search is one query of the domain's filter language; these say which type it was and
 * what the filter language is given for it.
 */

export type QueryType = 'date' | 'overdue' | 'priority' | 'label' | 'search';

/** The type the old server named a search (guess beyond `date` and `priority`, the two the help shows). */
export function queryType(query: string): QueryType {
  const text = query.trim().toLowerCase();
  if (/^(p[1-4]|!!?[1-4]|priority\s*[1-4])$/.test(text)) return 'priority';
  if (text === 'overdue' || text === 'od') return 'overdue';
  if (text.startsWith('@')) return 'label';
  if (text.startsWith('search:')) return 'search';
  return 'date';
}

/**
 * The filter-language text for a search. A date written the old way, `2007-4-29T10:13` (the
 * help's example), means that day: the time is dropped and the digits padded; `!!1` was p1.
 */
export function filterOf(query: string): string {
  const text = query.trim();
  const oldDate = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:T\d{1,2}:\d{2}(?::\d{2})?)?$/.exec(text);
  if (oldDate) return `${oldDate[1]}-${oldDate[2].padStart(2, '0')}-${oldDate[3].padStart(2, '0')}`;
  const bangs = /^!!?([1-4])$/.exec(text);
  if (bangs) return `p${bangs[1]}`;
  return text;
}
