/** Per-publisher request counters. */
export interface PublisherCounters {
  siteRequests: number;
  feedRequests: number;
  feedsServed: number;
  notModified: number;
  rateLimitViolations: number;
  robotsViolations: number;
}

/** What the simulator saw, so tests and benchmarks can check a client's manners. */
export interface StatsSnapshot {
  requests: number;
  byStatus: Record<string, number>;
  bytesSent: number;
  feedRequests: number;
  feedsServed: number;
  notModified: number;
  /** feed requests answered 304 / all feed requests that reached a honest feed */
  notModifiedRatio: number;
  /** requests made while a rate-limited publisher's Retry-After window was still open */
  rateLimitViolations: number;
  /** requests to sites whose robots.txt disallows them */
  robotsViolations: number;
  itemsPublished: number;
  hub: { subscriptions: number; verifications: number; deliveries: number; failedDeliveries: number };
}

function blank(): PublisherCounters {
  return { siteRequests: 0, feedRequests: 0, feedsServed: 0, notModified: 0, rateLimitViolations: 0, robotsViolations: 0 };
}

/** Request accounting; cheap counters only, safe at benchmark rates. */
export class SimStats {
  private requests = 0;
  private readonly byStatus: Record<string, number> = {};
  private bytesSent = 0;
  private readonly total = blank();
  private readonly per = new Map<string, PublisherCounters>();

  constructor(private readonly extra: () => Pick<StatsSnapshot, 'itemsPublished' | 'hub'>) {}

  private of(id: string): PublisherCounters {
    let c = this.per.get(id);
    if (!c) this.per.set(id, (c = blank()));
    return c;
  }

  private bump(id: string, key: keyof PublisherCounters): void {
    this.of(id)[key]++;
    this.total[key]++;
  }

  response(status: number): void {
    this.requests++;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
  }

  bytes(n: number): void {
    this.bytesSent += n;
  }

  siteRequest(id: string): void { this.bump(id, 'siteRequests'); }
  feedRequest(id: string): void { this.bump(id, 'feedRequests'); }
  feedServed(id: string): void { this.bump(id, 'feedsServed'); }
  notModified(id: string): void { this.bump(id, 'notModified'); }
  rateLimitViolation(id: string): void { this.bump(id, 'rateLimitViolations'); }
  robotsViolation(id: string): void { this.bump(id, 'robotsViolations'); }

  /** Counters of one publisher (zeros if it was never asked for anything). */
  publisher(id: string): PublisherCounters {
    return { ...(this.per.get(id) ?? blank()) };
  }

  snapshot(): StatsSnapshot {
    const answered = this.total.feedsServed + this.total.notModified;
    return {
      requests: this.requests,
      byStatus: { ...this.byStatus },
      bytesSent: this.bytesSent,
      feedRequests: this.total.feedRequests,
      feedsServed: this.total.feedsServed,
      notModified: this.total.notModified,
      notModifiedRatio: answered === 0 ? 0 : this.total.notModified / answered,
      rateLimitViolations: this.total.rateLimitViolations,
      robotsViolations: this.total.robotsViolations,
      ...this.extra(),
    };
  }
}
