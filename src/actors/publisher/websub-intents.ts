import { answerVerification, type VerificationAnswer, type VerificationQuery, type WebSubState } from './websub.js';

/** What answering a verification of intent, and checking a push's signature, read of a publisher's subscription. */
interface Intent {
  url: string;
  topic: string;
  status: WebSubState['status'];
  secret: string;
}

/**
 * The node's read model of WebSub subscriptions, kept by the publisher actors: each writes what
 * it asked a hub for the moment it asks (and whenever it saves). A hub's verification of intent
 * is then answered from here at once, even while the actor is busy with a slow poll; the actor
 * still receives the verification afterwards and records the lease. The subscription's secret is
 * kept too, so a pushed body's signature is checked before a push costs the publisher anything
 * (a forger cannot spend a publisher's rate limit). Only publishers holding a subscription are
 * kept, so the memory follows subscriptions, not publishers.
 */
export class WebSubIntents {
  private readonly intents = new Map<string, Intent>();

  /** Records a publisher's current subscription (or forgets it when there is none). */
  note(p: { id: string; url: string; websub: WebSubState | null }): void {
    const sub = p.websub;
    if (sub === null) {
      this.intents.delete(p.id);
      return;
    }
    const had = this.intents.get(p.id);
    if (had !== undefined && had.url === p.url && had.topic === sub.topic && had.status === sub.status && had.secret === sub.secret) return;
    this.intents.set(p.id, { url: p.url, topic: sub.topic, status: sub.status, secret: sub.secret });
  }

  forget(id: string): void {
    this.intents.delete(id);
  }

  /**
   * The answer for a verification of intent, or null when this node knows no subscription of the
   * publisher (the actor is asked then). Same rules as the actor's own answer (`answerVerification`).
   */
  answer(id: string, q: VerificationQuery): VerificationAnswer | null {
    const i = this.intents.get(id);
    if (i === undefined) return null;
    return answerVerification(q, i, i.url);
  }

  /** The secret pushes for the publisher are signed with, or null when this node knows no subscription of it. */
  secretOf(id: string): string | null {
    return this.intents.get(id)?.secret ?? null;
  }

  get size(): number {
    return this.intents.size;
  }
}
