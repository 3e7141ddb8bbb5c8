import { useState } from 'preact/hooks';
import type { Item } from '../api/sync-types';
import { addNoteWithFile } from '../state/rest-calls';
import { addNote } from '../state/session';
import { viewData } from '../state/store';
import { notesOf } from '../state/task-selectors';

export function Comments({ item }: { item: Item }) {
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const data = viewData.value;
  const notes = notesOf(data, item.id);
  const submit = (event: Event) => {
    event.preventDefault();
    if (!text.trim() && !file) return;
    if (file) void addNoteWithFile(item.id, text.trim() || file.name, file);
    else addNote(item.id, text.trim());
    setText('');
    setFile(null);
    (event.currentTarget as HTMLFormElement).reset();
  };
  return (
    <section class="comments" aria-label={`Comments on ${item.content}`}>
      <ul aria-label="Comments">
        {notes.map((note) => (
          <li key={note.id} data-testid="comment">
            <span class="author">{data.collaborators.get(note.posted_uid ?? '')?.full_name ?? (note.posted_uid === data.user?.id ? 'You' : 'Someone')}</span>: {note.content}
            {note.file_attachment?.file_url ? (
              <>
                {' '}
                <a href={note.file_attachment.file_url} rel="noopener noreferrer" target="_blank">
                  {note.file_attachment.file_name ?? 'attachment'}
                </a>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <form onSubmit={submit}>
        <label>
          Add comment
          <input value={text} onInput={(event) => setText(event.currentTarget.value)} />
        </label>
        <label>
          Attach file
          <input type="file" onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />
        </label>
        <button type="submit">Comment</button>
      </form>
    </section>
  );
}
