import type { EdgeReply } from '@doable/contracts-common';

/** A remembered answer: what the client gets, without the internal `unchangedFor`. */
export type RememberedAnswer = Pick<EdgeReply, 'status' | 'body' | 'contentType' | 'headers'>;

interface UserAnswers {
  /** Moves whenever the user's marks move: a forward begun before cannot be remembered after. */
  generation: number;
  readonly byRequest: Map<string, RememberedAnswer>;
}

/** Taken before a request is forwarded; its answer is remembered only if nothing moved meanwhile. */
export interface AnswerTicket {
  readonly userId: string;
  readonly entry: UserAnswers;
  readonly generation: number;
}

export interface UnchangedAnswersLimits {
  /** Users whose answers are kept; the least recently polled one is forgotten first. */
  readonly maxUsers: number;
  /** Distinct requests kept per user (clients of one user: the phone, the desktop, an integration). */
  readonly maxPerUser: number;
}

/**
 * The "nothing new" answers sync gave to each user's polls, by request, until that user's marks
 * move (contracts-sync gateway-polls.ts). Pure memory: what keeps it true is UnchangedPolls'
 * answer to the users-moved barrier (told of moved users before any write is answered) and the
 * registry lease (cleared when this gateway may have missed being told).
 *
 * The race it closes: a poll is forwarded, sync reads "nothing new", a write commits and this
 * gateway is told, and only then does the poll's answer arrive. A ticket taken before the
 * forward carries the user's generation; `moved` advances it, so that late answer is not kept.
 */
export class UnchangedAnswers {
  /** Map order is recency: a hit moves the user to the end. */
  private readonly users = new Map<string, UserAnswers>();

  constructor(private readonly limits: UnchangedAnswersLimits) {}

  get size(): number {
    return this.users.size;
  }

  find(userId: string, request: string): RememberedAnswer | undefined {
    const entry = this.users.get(userId);
    const answer = entry?.byRequest.get(request);
    if (entry && answer) {
      this.users.delete(userId);
      this.users.set(userId, entry);
    }
    return answer;
  }

  ticket(userId: string): AnswerTicket {
    let entry = this.users.get(userId);
    if (!entry) {
      entry = { generation: 0, byRequest: new Map() };
      this.users.set(userId, entry);
      this.evict();
    }
    return { userId, entry, generation: entry.generation };
  }

  /** Keeps the answer unless the user moved (or was forgotten, or everything was) since the ticket. */
  remember(ticket: AnswerTicket, request: string, answer: RememberedAnswer): boolean {
    const { entry } = ticket;
    if (this.users.get(ticket.userId) !== entry || entry.generation !== ticket.generation) return false;
    if (!entry.byRequest.has(request) && entry.byRequest.size >= this.limits.maxPerUser) {
      entry.byRequest.delete(entry.byRequest.keys().next().value as string);
    }
    entry.byRequest.set(request, answer);
    return true;
  }

  /** These users' marks moved: their answers are stale, and so is any answer on its way. */
  moved(userIds: readonly string[]): number {
    let forgotten = 0;
    for (const userId of userIds) {
      const entry = this.users.get(userId);
      if (!entry) continue;
      forgotten += entry.byRequest.size;
      entry.byRequest.clear();
      entry.generation += 1;
    }
    return forgotten;
  }

  /**
   * Forgets the users `keep` turns down (this gateway is no longer their home), and any answer
   * of theirs on its way. Answers how many users were forgotten.
   */
  forgetUnless(keep: (userId: string) => boolean): number {
    let forgotten = 0;
    for (const userId of [...this.users.keys()]) {
      if (keep(userId)) continue;
      this.users.delete(userId);
      forgotten++;
    }
    return forgotten;
  }

  /** Forgets everything, and every answer on its way (their tickets name entries no longer held). */
  clear(): void {
    this.users.clear();
  }

  private evict(): void {
    while (this.users.size > this.limits.maxUsers) this.users.delete(this.users.keys().next().value as string);
  }
}
