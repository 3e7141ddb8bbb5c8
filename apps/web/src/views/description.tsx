/**
 * A task's description. Todoist renders it as Markdown; no Markdown library is in the app's
 * dependencies yet (markdown-it is the one to add, with `html: false` so raw HTML is escaped), so
 * until then it is shown as written: paragraphs and line breaks kept, and http(s) addresses made
 * links. Everything is rendered as text nodes, never as HTML, so nothing in it can run.
 */
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

export function Description({ text }: { text: string }) {
  if (!text.trim()) return <p class="empty description">No description.</p>;
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
