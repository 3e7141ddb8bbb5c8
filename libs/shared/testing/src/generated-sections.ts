import { readFileSync, writeFileSync } from 'node:fs';

/** `text` with each marked section's body replaced by `sections[name]`; a marker pair missing is an error. */
export function withGeneratedSections(text: string, sections: Readonly<Record<string, string>>): string {
  let result = text;
  for (const [name, body] of Object.entries(sections)) {
    const begin = `<!-- ${name}:begin -->`;
    const end = `<!-- ${name}:end -->`;
    const from = result.indexOf(begin);
    const to = result.indexOf(end);
    if (from === -1 || to < from) throw new Error(`the page has no ${begin} ... ${end} section`);
    // The body keeps the indentation of the begin marker (a table may sit inside a list item).
    const indent = result.slice(result.lastIndexOf('\n', from) + 1, from);
    const indented = body
      .split('\n')
      .map((line) => (line === '' ? '' : indent + line))
      .join('\n');
    result = `${result.slice(0, from + begin.length)}\n${indented}\n${indent}${result.slice(to)}`;
  }
  return result;
}

/**
 * A docs page's generated sections (`<!-- name:begin -->` ... `<!-- name:end -->`) as the code
 * generates them now: throws, naming `regenerate`, when the page differs; with UPDATE_DOCS=1
 * rewrites the page instead. Answers the page's text after the check, for the spec to assert on.
 */
export function checkGeneratedSections(page: string, sections: Readonly<Record<string, string>>, regenerate: string): string {
  const text = readFileSync(page, 'utf8');
  const generated = withGeneratedSections(text, sections);
  if (process.env['UPDATE_DOCS'] === '1') writeFileSync(page, generated);
  else if (generated !== text) throw new Error(`${page}: the generated tables differ from the code: run \`${regenerate}\``);
  return readFileSync(page, 'utf8');
}
