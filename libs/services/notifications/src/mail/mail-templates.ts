/**
 * The mails this service sends, one template per kind, each in plain text and HTML. Everything
 * interpolated into the HTML is escaped (names, project names, task contents and messages are
 * what users typed). The product has no translations anywhere yet, so every mail is in English
 * whatever the user's `lang`; a translation would be one more table here, chosen by `lang`.
 */

export interface InvitationMail {
  readonly inviterName: string;
  readonly inviterEmail: string;
  readonly projectName: string;
  readonly message: string;
  /** The sign-up page with the invitation: a secret link. */
  readonly link: string;
  /**
   * The invitation's decline page (asks before it declines): a secret link. Absent from mails
   * queued by a release before it, which are sent with the sign-up link only.
   */
  readonly declineLink?: string;
}

export interface WorkspaceInvitationMail {
  readonly inviterName: string;
  readonly inviterEmail: string;
  readonly workspaceName: string;
  /** The role the invitation gives: ADMIN, MEMBER or GUEST. */
  readonly role: string;
  /** The sign-up page with the invitation: a secret link. */
  readonly link: string;
  /**
   * The invitation's decline page (asks before it declines): a secret link. Absent from mails
   * queued by a release before it, which are sent with the sign-up link only.
   */
  readonly declineLink?: string;
}

/** A collaboration notification mailed because the receiver's settings say email (collaboration-mail-text.ts). */
export interface CollaborationMail {
  readonly subject: string;
  readonly summary: string;
  readonly link: string;
  /** Answers the notification offers before its link (an invitation's Accept and Decline). */
  readonly actions?: readonly MailLink[];
}

export interface ReminderMail {
  readonly taskContent: string;
  /** When the reminder was due, ISO 8601 UTC. */
  readonly dueAt: string;
  readonly link: string;
}

/** The daily digest: the user's Today view (due today and overdue) on their local day. */
export interface DailyDigestMail {
  /** The user's local day, YYYY-MM-DD. */
  readonly localDate: string;
  readonly tasks: ReadonlyArray<{ readonly content: string; readonly dueDate: string; readonly projectName: string; readonly priority: number }>;
  /** How many tasks are due; `tasks` may list fewer. */
  readonly total: number;
  /** The web app's Today. */
  readonly link: string;
}

export interface AccountLinkMail {
  readonly fullName: string;
  /** A secret link: reset or confirmation. */
  readonly link: string;
  readonly expiresAt: string;
}

export interface EmailChangeMail extends AccountLinkMail {
  readonly previousEmail: string;
}

/** A notice to the address an account is leaving: no link (nothing to follow from a mailbox that may not be the owner's). */
export interface EmailChangeNoticeMail {
  readonly fullName: string;
  readonly newEmail: string;
}

/** An address to prove (issue #44): a sign-up's, or the one a single sign-on wants to link. */
export interface AddressConfirmationMail extends AccountLinkMail {
  readonly reason: 'sign-up' | 'sso-link';
  readonly providerName?: string;
}

export interface MailTemplates {
  'share-invitation': InvitationMail;
  'workspace-invitation': WorkspaceInvitationMail;
  collaboration: CollaborationMail;
  reminder: ReminderMail;
  'daily-digest': DailyDigestMail;
  'password-reset': AccountLinkMail;
  'email-change': EmailChangeMail;
  'email-change-notice': EmailChangeNoticeMail;
  'address-confirmation': AddressConfirmationMail;
}
export type MailKind = keyof MailTemplates;
export const MAIL_KINDS: readonly MailKind[] = ['share-invitation', 'workspace-invitation', 'collaboration', 'reminder', 'daily-digest', 'password-reset', 'email-change', 'email-change-notice', 'address-confirmation'];

export interface RenderedMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A subject is one line: a name with a line break cannot add a header or split it. */
const oneLine = (value: string): string => value.replace(/[\r\n]+/g, ' ').trim();

/** A date as a reader reads it, in UTC (the mail has no timezone of the reader's to trust). */
const readableDate = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
};

/** Someone's own words, shown as a quotation (never as a sentence of the product's). */
interface Quoted {
  readonly quote: string;
}
type Paragraph = string | Quoted;

/** A display name in a subject: one line, at most SUBJECT_NAME_LENGTH characters. */
const SUBJECT_NAME_LENGTH = 60;
const subjectName = (name: string): string => {
  const line = oneLine(name);
  return line.length > SUBJECT_NAME_LENGTH ? `${line.slice(0, SUBJECT_NAME_LENGTH - 1)}…` : line;
};

const paragraphText = (paragraph: Paragraph): string =>
  typeof paragraph === 'string' ? paragraph : paragraph.quote.split(/\r?\n/).map((line) => `> ${line}`).join('\n');
const paragraphHtml = (paragraph: Paragraph): string =>
  typeof paragraph === 'string'
    ? `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`
    : `<blockquote style="margin: 0 0 1em; padding-left: 1em; border-left: 3px solid #ccc; color: #444">${escapeHtml(paragraph.quote).replace(/\r?\n/g, '<br>')}</blockquote>`;

/** A link a mail offers: a label and where it leads. */
export interface MailLink {
  readonly label: string;
  readonly href: string;
}

/** Paragraphs in text and HTML alike; `link` (one, or several in order) becomes a button-like anchor in HTML. */
function layout(subject: string, paragraphs: readonly Paragraph[], link?: MailLink | readonly MailLink[]): RenderedMail {
  const links: readonly MailLink[] = link === undefined ? [] : 'href' in link ? [link] : link;
  const text = [...paragraphs.map(paragraphText), ...links.map((each) => `${each.label}: ${each.href}`), '-- \nDoable'].join('\n\n');
  const body = paragraphs.map(paragraphHtml).join('\n');
  const anchor = links.map((each) => `\n<p><a href="${escapeHtml(each.href)}">${escapeHtml(each.label)}</a></p>`).join('');
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5">
${body}${anchor}
<p style="color: #777">Doable</p>
</body></html>
`;
  return { subject: oneLine(subject), text, html };
}

/** A digest line: the task, with its project, due day and priority (p1 is the API's 4: urgent). */
const digestLine = (task: DailyDigestMail['tasks'][number], localDate: string): string => {
  const day = task.dueDate.slice(0, 10);
  const when = day < localDate ? `overdue since ${day}` : task.dueDate.length > 10 ? `today ${task.dueDate.slice(11, 16)}${task.dueDate.endsWith('Z') ? ' UTC' : ''}` : 'today';
  const priority = task.priority > 1 ? `, p${5 - task.priority}` : '';
  return `- ${task.content} (${task.projectName}, ${when}${priority})`;
};

/** A workspace role as the invitation mail says it (the event's role is one of these). */
const WORKSPACE_ROLE_WORDS: Readonly<Record<string, string>> = { ADMIN: 'an admin', MEMBER: 'a member', GUEST: 'a guest' };

const RENDER: { [K in MailKind]: (data: MailTemplates[K]) => RenderedMail } = {
  'share-invitation': (data) =>
    layout(
      // The subject carries no text of the sender's but their name (short): a mail from Doable must not read as the sender's words.
      `${subjectName(data.inviterName)} invited you to a project in Doable`,
      [
        `${data.inviterName} (${data.inviterEmail}) invited you to work together on the project "${data.projectName}" in Doable.`,
        // The sender's own words, quoted and attributed: what they wrote, not what Doable says.
        ...(data.message.trim() ? [`${data.inviterName} wrote (Doable did not write or check this message):`, { quote: data.message.trim() }] : []),
        'Create your account from the link below: you join the project as soon as it is made.',
        ...(data.declineLink ? [`Not for you? Decline it from the second link: Doable asks you to confirm, then tells ${data.inviterName}.`] : []),
      ],
      [{ label: 'Join the project', href: data.link }, ...(data.declineLink ? [{ label: 'Decline the invitation', href: data.declineLink }] : [])],
    ),
  'workspace-invitation': (data) =>
    layout(
      `${subjectName(data.inviterName)} invited you to a team workspace in Doable`,
      [
        `${data.inviterName} (${data.inviterEmail}) invited you to join the team workspace "${data.workspaceName}" in Doable, as ${WORKSPACE_ROLE_WORDS[data.role] ?? 'a member'}.`,
        'Create your account from the link below: you join the workspace as soon as it is made.',
        ...(data.declineLink ? [`Not for you? Decline it from the second link: Doable asks you to confirm, then tells ${data.inviterName}.`] : []),
      ],
      [{ label: 'Join the workspace', href: data.link }, ...(data.declineLink ? [{ label: 'Decline the invitation', href: data.declineLink }] : [])],
    ),
  collaboration: (data) =>
    layout(data.subject, [data.summary, 'You get this mail because your notification settings in Doable say so; change them there.'], [...(data.actions ?? []), { label: 'Open Doable', href: data.link }]),
  reminder: (data) =>
    layout(`Reminder: ${data.taskContent}`, [`A reminder for your task "${data.taskContent}", due ${readableDate(data.dueAt)}.`], { label: 'Open the task', href: data.link }),
  'daily-digest': (data) =>
    layout(
      `Your day in Doable: ${data.total} ${data.total === 1 ? 'task' : 'tasks'} for ${data.localDate}`,
      [
        `Due today and overdue, ${data.localDate}:`,
        data.tasks.map((task) => digestLine(task, data.localDate)).join('\n'),
        ...(data.total > data.tasks.length ? [`And ${data.total - data.tasks.length} more.`] : []),
        'You get this mail because you turned the daily digest on in your notification settings; turn it off there.',
      ],
      { label: 'Open Today', href: data.link },
    ),
  'password-reset': (data) =>
    layout(
      'Reset your Doable password',
      [
        `Hello ${data.fullName},`,
        `Someone (we hope you) asked to reset the password of your Doable account. The link below works once, until ${readableDate(data.expiresAt)}.`,
        'If it was not you, ignore this mail: your password stays as it is.',
      ],
      { label: 'Choose a new password', href: data.link },
    ),
  'email-change': (data) =>
    layout(
      'Confirm your new Doable address',
      [
        `Hello ${data.fullName},`,
        `You asked to change the address of your Doable account from ${data.previousEmail} to this one. The link below confirms it, once, until ${readableDate(data.expiresAt)}.`,
        'If it was not you, ignore this mail: the address stays as it is.',
      ],
      { label: 'Confirm this address', href: data.link },
    ),
  'email-change-notice': (data) =>
    layout('Your Doable address is about to change', [
      `Hello ${data.fullName},`,
      `Someone signed in to your Doable account asked to move it to ${data.newEmail}. Nothing changes until that address confirms it.`,
      'If it was not you, change your password now and check the applications that have access to your account.',
    ]),
  'address-confirmation': (data) =>
    data.reason === 'sign-up'
      ? layout(
          'Confirm your Doable address',
          [
            `Hello ${data.fullName},`,
            `Confirm that this address is yours: until then, single sign-on, invitations and workspace domains do not recognise your account by it. The link below works once, until ${readableDate(data.expiresAt)}.`,
            'If you did not sign up for Doable, ignore this mail.',
          ],
          { label: 'Confirm this address', href: data.link },
        )
      : layout(
          'Link your Doable account to your sign-in',
          [
            `Hello ${data.fullName},`,
            `Someone signed in with ${data.providerName ?? 'single sign-on'} as this address and asked to link that sign-in to the Doable account of this address. The link below does it, once, until ${readableDate(data.expiresAt)}.`,
            "Linking ends every other way into the account: its password, two-factor log-in, sessions and tokens. If it was not you, ignore this mail.",
          ],
          { label: 'Link my sign-in', href: data.link },
        ),
};

/** The mail of a kind, in the user's language where the product has it (English: the only one yet). */
export function renderMail<K extends MailKind>(kind: K, data: MailTemplates[K], _lang = 'en'): RenderedMail {
  return (RENDER[kind] as (data: MailTemplates[K]) => RenderedMail)(data);
}
