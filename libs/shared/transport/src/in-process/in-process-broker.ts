/**
 * The embedded mode's message broker: request/reply with queue groups and fan-out publish,
 * like core NATS. Payloads are strings (serialised JSON) so nothing is shared by reference
 * between services, exactly as over the wire.
 */
export type Headers = Readonly<Record<string, string>>;
export type Responder = (rawReply: string) => void;
export type RequestHandler = (rawRequest: string, headers: Headers, respond: Responder) => void;
export type BroadcastHandler = (raw: string, headers: Headers) => void;

/** What a requester receives when nobody serves the subject (as NATS' 503 status). */
export const NO_RESPONDERS = 'NO_RESPONDERS';

interface QueueGroup {
  members: RequestHandler[];
  next: number;
}

export class InProcessBroker {
  private readonly groups = new Map<string, Map<string, QueueGroup>>();
  private readonly listeners = new Map<string, Set<BroadcastHandler>>();

  /** Serves a subject as one member of a queue group; returns the unsubscribe function. */
  serve(subject: string, queue: string, handler: RequestHandler): () => void {
    const bySubject = this.groups.get(subject) ?? new Map<string, QueueGroup>();
    this.groups.set(subject, bySubject);
    const group = bySubject.get(queue) ?? { members: [], next: 0 };
    bySubject.set(queue, group);
    group.members.push(handler);
    return () => {
      group.members = group.members.filter((member) => member !== handler);
      if (group.members.length === 0) bySubject.delete(queue);
      if (bySubject.size === 0) this.groups.delete(subject);
    };
  }

  /** Delivers a request to one member of each queue group serving the subject. */
  request(subject: string, rawRequest: string, headers: Headers, respond: Responder): boolean {
    const bySubject = this.groups.get(subject);
    if (!bySubject || bySubject.size === 0) return false;
    for (const group of bySubject.values()) {
      const member = group.members[group.next++ % group.members.length];
      // Asynchronous like a network hop: the caller never runs inside the handler's stack.
      setImmediate(() => member(rawRequest, headers, respond));
    }
    return true;
  }

  /** Fan-out: every listener of the subject receives its own copy. */
  listen(subject: string, handler: BroadcastHandler): () => void {
    const set = this.listeners.get(subject) ?? new Set<BroadcastHandler>();
    this.listeners.set(subject, set);
    set.add(handler);
    return () => set.delete(handler);
  }

  publish(subject: string, raw: string, headers: Headers = {}): void {
    for (const handler of this.listeners.get(subject) ?? []) setImmediate(() => handler(raw, headers));
  }
}
