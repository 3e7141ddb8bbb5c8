import { useEffect, useState } from 'preact/hooks';

/**
 * A task's description, as Markdown (Todoist's way). The renderer (`./markdown`, markdown-it) is
 * a chunk of its own, asked for when a description is first shown: until it arrives, and if it
 * cannot be loaded (offline with an old cache), the description shows as written, paragraphs
 * and line breaks kept and http(s) addresses made links, all as text nodes.
 */
type Renderer = typeof import('./markdown');
let renderer: Renderer | undefined;
let loading: Promise<Renderer> | undefined;

function loadRenderer(): Promise<Renderer> {
  loading ??= import('./markdown').then(
    (module) => (renderer = module),
    (error: unknown) => {
      loading = undefined; // a later view tries again
      throw error;
    },
  );
  return loading;
}

const URL_PATTERN = /\bhttps?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/g;

function withLinks(line: string) {
  const parts: preact.ComponentChildren[] = [];
  let last = 0;
  for (const match of line.matchAll(URL_PATTERN)) {
    parts.push(line.slice(last, match.index));
    parts.push(
      <a href={match[0]} rel="noopener noreferrer" target="_blank">
        {match[0]}
      </a>,
    );
    last = (match.index ?? 0) + match[0].length;
  }
  parts.push(line.slice(last));
  return parts;
}

function PlainText({ text }: { text: string }) {
  return (
    <div class="description" data-testid="task-description">
      {text.split(/\n{2,}/).map((paragraph, index) => (
        <p key={index}>
          {paragraph.split('\n').map((line, at) => (
            <>
              {at > 0 ? <br /> : null}
              {withLinks(line)}
            </>
          ))}
        </p>
      ))}
    </div>
  );
}

export function Description({ text }: { text: string }) {
  const [markdown, setMarkdown] = useState<Renderer | undefined>(renderer);
  const empty = !text.trim();
  useEffect(() => {
    if (markdown || empty) return;
    let current = true;
    loadRenderer().then(
      (module) => current && setMarkdown(module),
      () => undefined, // the plain text stays
    );
    return () => {
      current = false;
    };
  }, [empty]);
  if (empty) return <p class="empty description">No description.</p>;
  if (!markdown) return <PlainText text={text} />;
  // Safe as inner HTML: markdown-it escapes raw HTML (html: false) and ./markdown allows only
  // http(s), mailto and relative links.
  return <div class="description markdown" data-testid="task-description" data-rendered="markdown" dangerouslySetInnerHTML={{ __html: markdown.renderMarkdown(text) }} />;
}
