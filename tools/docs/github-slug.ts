/**
 * A heading's anchor as GitHub makes it (github-slugger's rule): lower case, every character
 * that is not a letter, mark, digit, connector, space or hyphen dropped, spaces made hyphens;
 * a repeated slug on one page gets `-1`, `-2`, ... The docs site uses the same function
 * (docs/.vitepress/config.mts), so one link works on GitHub and on the site alike.
 */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** A slugger for one page: the second "Notes" heading is `notes-1`, as on GitHub. */
export function pageSlugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = githubSlug(text);
    let slug = base;
    let count = seen.get(base) ?? 0;
    while (seen.has(slug)) slug = `${base}-${++count}`;
    seen.set(base, count);
    seen.set(slug, 0);
    return slug;
  };
}
