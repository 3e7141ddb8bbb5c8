/**
 * JSON text written by PostgreSQL byte for byte as JSON.stringify writes the same value in
 * JavaScript. json_build_object and json_agg cannot be used for that: they put " : " between a
 * key and its value and ", \n " between array elements, and jsonb's text has ": " and ", ". So
 * the text is concatenated, and every value goes through to_json(), whose escaping (escape_json:
 * `\"`, `\\`, `\b \f \n \r \t`, other controls as lowercase `\u00xx`, the rest as it is) is
 * JSON.stringify's for every string PostgreSQL can hold (no NUL, no lone surrogate).
 *
 * A piece of SQL here that yields JSON text is never NULL for a value it can write: NULL means
 * "PostgreSQL cannot write this as JavaScript would" (a number JSON.parse would round or
 * JSON.stringify would write with an exponent, an all-digit object key), and it makes every
 * text it is part of NULL, so an object or answer holding it is seen as not written (the caller
 * then lets the JavaScript writer answer) rather than written differently.
 */

/** A string as an SQL literal. */
export function sqlLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** A key (or any fixed string) as the JSON text JSON.stringify writes for it, as an SQL literal. */
export function jsonLiteral(value: string | number | boolean | null): string {
  return sqlLiteral(JSON.stringify(value));
}

/** A JSON string token (escapes included), as a regular expression. */
const STRING_TOKEN = String.raw`"(?:[^"\\]|\\.)*"`;
/**
 * jsonb's text puts a space after each `:` and `,` between tokens (and nowhere else outside
 * strings): each string token is matched whole, so nothing inside one is touched.
 */
const COMPACT = `(${STRING_TOKEN}|[,:]) ?`;
/**
 * A key that is all digits: JavaScript may put it first (an array index) where jsonb keeps its
 * order by length. In compact text a key follows `{` or `,`, which an escaped quote inside a
 * string never does.
 */
const DIGIT_KEY = '[{,]"[0-9]+":';
/**
 * A number JSON.parse and JSON.stringify may not give back digit for digit (checked with the
 * strings taken out, so only number tokens are seen; numeric's text has no exponent): 16 or more
 * digits (2^53 has 16), a fraction ending in 0 (`1.50`, `2.0`), or below 1e-6 (written with an
 * exponent).
 */
const INEXACT_NUMBER = String.raw`[0-9.]{16,}|\.[0-9]*0(?![0-9])|0\.000000`;

/**
 * A jsonb value (not SQL NULL) as the pg driver and JSON.stringify write it (JSON.parse of its
 * text, then JSON.stringify): jsonb's text without the spaces it puts between tokens. Strings,
 * booleans and null are jsonb's text as it is (escape_json again). NULL where JavaScript could
 * write the value otherwise: an object with an all-digit key (JavaScript orders array indices
 * first) or a number it may round or write with an exponent (INEXACT_NUMBER). No set-returning
 * function: a per-element subquery makes the planner's estimates grow with every level, which
 * switches on the JIT compiler (seconds) for a statement over thousands of rows. And no sub-query
 * at all, though the compacted text is then written three times (computed only for an object or
 * an array, which few values are): an expression without one is what PL/pgSQL evaluates as a
 * simple expression, without starting the executor, so the trigger of migration StoredTaskJson
 * writes a task's three texts in 17 µs instead of 120 (issue #48).
 */
export function jsonbTextSql(value: string): string {
  const compact = `regexp_replace((${value})::text, ${sqlLiteral(COMPACT)}, '\\1', 'g')`;
  return `(CASE WHEN jsonb_typeof(${value}) IN ('string', 'boolean', 'null') THEN (${value})::text
      WHEN ${compact} !~ ${sqlLiteral(DIGIT_KEY)} AND regexp_replace(${compact}, ${sqlLiteral(STRING_TOKEN)}, '', 'g') !~ ${sqlLiteral(INEXACT_NUMBER)} THEN ${compact} END)`;
}

/**
 * A member written always whose value text is never NULL (PostgreSQL can always write it):
 * objectTextSql writes a run of these with one format() call. A chain of `||` copies the text
 * made so far at every step, which for a task of 500 characters and some fifty steps was most of
 * what writing it cost (issue #48, bench S5); format() appends each value once.
 */
export interface PlainMember {
  readonly key: string;
  readonly text: string;
}

/**
 * A member of objectTextSql: a PlainMember, or the text of one (memberSql, conditionalMemberSql)
 * that may be empty (a key left out) or NULL (not written), joined with `||` so NULL carries.
 */
export type ObjectMember = PlainMember | string;

/** The most values one format() call is given (PostgreSQL allows 100 arguments to a function). */
const FORMAT_VALUES = 60;

/** A fixed text as a format() string (`%` doubled), without the quotes of its SQL literal. */
const formatText = (text: string): string => text.replace(/%/g, '%%');

/**
 * An object's text from its members, in order. Runs of PlainMembers are written by format(), the
 * other members joined to them with `||`; NULL when any of those is NULL (see above). When the
 * first member may be left out, every member starts with its comma and the first is dropped.
 */
export function objectTextSql(members: readonly ObjectMember[], close = true): string {
  if (members.length === 0) return close ? `'{}'` : `'{'`;
  const startsPlain = typeof members[0] !== 'string';
  const parts: string[] = [];
  let format = startsPlain ? '{' : '';
  let values: string[] = [];
  const flush = () => {
    if (format === '' && values.length === 0) return;
    parts.push(values.length === 0 ? sqlLiteral(format) : `format(${sqlLiteral(format)}, ${values.join(', ')})`);
    format = '';
    values = [];
  };
  members.forEach((member, index) => {
    if (typeof member === 'string') {
      flush();
      parts.push(member);
      return;
    }
    if (values.length === FORMAT_VALUES) flush();
    format += formatText(`${index === 0 ? '' : ','}${JSON.stringify(member.key)}:`) + '%s';
    values.push(member.text);
  });
  if (!startsPlain) {
    flush();
    return `('{' || substr(${parts.join(' || ')}, 2)${close ? " || '}'" : ''})`;
  }
  if (close) format += '}';
  flush();
  return parts.length === 1 ? parts[0] : `(${parts.join(' || ')})`;
}

/**
 * The members that end an object whose head (objectTextSql without its closing brace, `close`
 * false) was written elsewhere: each with its comma, then the brace. A task's text is stored
 * without the members a read computes (its comment count), which a read appends with this.
 * The head must have written a member (the first appended starts with a comma).
 */
export function objectRestSql(members: readonly ObjectMember[]): string {
  return `(${[...members.map((member) => (typeof member === 'string' ? member : memberSql(member.key, member.text))), "'}'"].join(' || ')})`;
}

/** A member of objectTextSql written always whose value text is never NULL. */
export function plainMemberSql(key: string, valueText: string): PlainMember {
  return { key, text: valueText };
}

/** A member of objectTextSql, written always; its value text may be NULL. */
export function memberSql(key: string, valueText: string): string {
  return `${sqlLiteral(`,${JSON.stringify(key)}:`)} || ${valueText}`;
}

/** A member of objectTextSql, written while `condition` holds (an SQL boolean; not written when it is false or NULL). */
export function conditionalMemberSql(key: string, valueText: string, condition: string): string {
  return `CASE WHEN ${condition} THEN ${memberSql(key, valueText)} ELSE '' END`;
}
