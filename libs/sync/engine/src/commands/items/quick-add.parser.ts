import { findNamed, type Named } from '@doable/shared-quick-add-names';

/**
 * The Quick Add task line, read without touching the database: the caller supplies the user's
 * projects and sections and a test for "this text is a due date".
 *
 * Rules, applied in this order:
 * 1. ` // rest` (the `//` at the start or after a space, so URLs survive) makes the rest the description.
 * 2. `{expr}`: the first braces whose text is a date become the deadline; others stay in the content.
 * 3. `#Project` / `#"Multi word"` / `#My\ Project`: the user's project whose name follows the `#`
 *    (case-insensitive, ending at a space or the end; the longest name wins). The first `#` that
 *    names a project is used; an unknown `#word` stays in the content, as Todoist does.
 * 4. `/Section` / `/"Multi word"`: a section of the chosen project (the Inbox without one), same matching.
 * 4b. `+Person` / `+"Full Name"`: the assignee, a collaborator of the chosen project named by full
 *    name, first name or email, same matching (public-api-facts: `+Assignee`, "needs shared
 *    project"). In a project nobody shares, or for a name that is no collaborator, it stays in the content.
 * 5. `@label` / `@"multi word"`: a label name (any name; the service creates unknown ones).
 * 6. `p1`-`p4` (or `!!1`-`!!4`) as a word: p1 is priority 4, p4 priority 1. The first one wins.
 * 7. Due: of what remains, the longest run of trailing words that is a date, keeping at least one
 *    word of content. A date in the middle of the line is not looked for.
 */
export interface QuickAddProject {
  readonly id: string;
  readonly name: string;
}

export interface QuickAddSection {
  readonly id: string;
  readonly projectId: string;
  readonly name: string;
}

/** A member of a shared project, by the names Quick Add knows them by. */
export interface QuickAddCollaborator {
  readonly id: string;
  readonly projectId: string;
  readonly fullName: string;
  readonly email: string;
}

export interface QuickAddContext {
  readonly projects: readonly QuickAddProject[];
  readonly sections: readonly QuickAddSection[];
  /** The members of the user's shared projects (none when nothing is shared). */
  readonly collaborators?: readonly QuickAddCollaborator[];
  readonly inboxProjectId: string;
  /** Whether the text parses as a due (or deadline) expression. */
  readonly isDate: (text: string) => boolean;
}

export interface QuickAddParse {
  readonly content: string;
  readonly description: string | null;
  readonly projectId: string | null;
  readonly sectionId: string | null;
  /** The assignee (`+Person`), a collaborator of the chosen project. */
  readonly responsibleUid: string | null;
  readonly labels: string[];
  readonly priority: number | null;
  readonly dueString: string | null;
  readonly deadlineString: string | null;
}

/** Removes the first marker token that names a candidate; the text is unchanged when none does. */
function takeNamed<T extends Named>(text: string, marker: string, candidates: readonly T[]): [T | null, string] {
  const match = findNamed(text, marker, candidates);
  return match ? [match.found, text.slice(0, match.start) + ' ' + text.slice(match.end)] : [null, text];
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

export function parseQuickAdd(line: string, context: QuickAddContext): QuickAddParse {
  let text = line;

  let description: string | null = null;
  const slashes = /(^|\s)\/\/(.*)$/s.exec(text);
  if (slashes) {
    description = slashes[2]?.trim() ?? '';
    text = text.slice(0, slashes.index);
  }

  let deadlineString: string | null = null;
  for (const brace of text.matchAll(/\{([^{}]*)\}/g)) {
    const expr = squash(brace[1] ?? '');
    if (expr && context.isDate(expr)) {
      deadlineString = expr;
      text = text.slice(0, brace.index) + ' ' + text.slice(brace.index + brace[0].length);
      break;
    }
  }

  const [project, afterProject] = takeNamed(text, '#', context.projects);
  text = afterProject;
  const sectionProject = project?.id ?? context.inboxProjectId;
  const sections = context.sections.filter((section) => section.projectId === sectionProject);
  const [section, afterSection] = takeNamed(text, '/', sections);
  text = afterSection;

  // Each person under every name they may be called by; the longest name that matches wins.
  const people = (context.collaborators ?? [])
    .filter((person) => person.projectId === sectionProject)
    .flatMap((person) => [person.fullName, person.fullName.split(' ')[0] ?? '', person.email].filter(Boolean).map((name) => ({ id: person.id, name })));
  const [assignee, afterAssignee] = takeNamed(text, '+', people);
  text = afterAssignee;

  const labels: string[] = [];
  text = text.replace(/(^|\s)@(?:"([^"]+)"|([^\s@#"]+))/g, (_all, space: string, quoted: string | undefined, bare: string | undefined) => {
    const name = squash(quoted ?? bare ?? '');
    if (name && !labels.some((label) => label.toLocaleLowerCase() === name.toLocaleLowerCase())) labels.push(name);
    return space;
  });

  let priority: number | null = null;
  const priorityToken = /(^|\s)(?:[pP]|!!)([1-4])(?=\s|$)/.exec(text);
  if (priorityToken) {
    priority = 5 - Number(priorityToken[2]);
    text = text.slice(0, priorityToken.index) + priorityToken[1] + text.slice(priorityToken.index + priorityToken[0].length);
  }

  const words = squash(text).split(' ').filter(Boolean);
  let dueString: string | null = null;
  for (let start = 1; start < words.length; start++) {
    const candidate = words.slice(start).join(' ');
    if (context.isDate(candidate)) {
      dueString = candidate;
      words.length = start;
      break;
    }
  }

  return {
    content: words.join(' '),
    description,
    projectId: project?.id ?? null,
    sectionId: section?.id ?? null,
    responsibleUid: assignee?.id ?? null,
    labels,
    priority,
    dueString,
    deadlineString,
  };
}
