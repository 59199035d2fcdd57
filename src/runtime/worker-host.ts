import type { Behaviour, Message } from './actor.js';
import type { WireEnvelope, WireReply } from './envelope.js';
import { ActorUnavailableError, describeError } from './errors.js';
import { ActorSystem } from './system.js';

/**
 * The piscina task module that hosts shard-owning actors inside a worker thread. Each task is a
 * batch of envelopes; they are enqueued in arrival order (so per-actor FIFO holds across
 * batches) into a thread-local ActorSystem whose actors keep their state between batches.
 * A replacement worker starts empty and actors rebuild their state through `init`.
 */
export interface WorkerTask {
  /** kind -> module URL exporting the Behaviour as `default` or `behaviour` */
  kinds: Record<string, string>;
  /**
   * The batch as parallel arrays (address, message, ask id or 0): structured cloning one
   * object per envelope cost more than the actors' own work in the single-message benchmark.
   */
  to: string[];
  msgs: Message[];
  askIds: number[];
}

export interface WorkerResult {
  replies: WireReply[];
  /** messages worker actors sent to actors outside this worker, for the main thread to route */
  outbound: WireEnvelope[];
}

let system: ActorSystem | null = null;
let outbox: WireEnvelope[] = [];
const loaded = new Map<string, Promise<void>>();
let chain: Promise<unknown> = Promise.resolve();

function getSystem(): ActorSystem {
  if (system) return system;
  system = new ActorSystem();
  system.routeUnknown({
    deliver(to, msg, reply) {
      outbox.push({ to, msg });
      reply?.(new ActorUnavailableError(to, 'a worker actor can ask only actors of its own worker'));
    },
  });
  return system;
}

/** TypeScript sources (tests, dev) load through tsx's API; built `.js` through plain import. */
async function importModule(url: string): Promise<{ default?: Behaviour; behaviour?: Behaviour }> {
  if (!url.endsWith('.ts')) return import(url);
  const api = 'tsx/esm/api';
  const { tsImport } = (await import(api)) as { tsImport: (u: string, parent: string) => Promise<never> };
  return tsImport(url, import.meta.url);
}

function loadKind(kind: string, url: string): Promise<void> {
  let p = loaded.get(kind);
  if (!p) {
    p = importModule(url).then((mod: { default?: Behaviour; behaviour?: Behaviour }) => {
      const b = mod.default ?? mod.behaviour;
      if (!b || b.kind !== kind) throw new Error(`module ${url} does not export the behaviour of kind ${kind}`);
      getSystem().register(b);
    });
    loaded.set(kind, p);
  }
  return p;
}

function enqueue(task: WorkerTask): Promise<WorkerResult> {
  const sys = getSystem();
  const replies: WireReply[] = [];
  return new Promise<WorkerResult>((resolve) => {
    let remaining = task.to.length;
    const finish = () => {
      const outbound = outbox;
      outbox = [];
      resolve({ replies, outbound });
    };
    if (remaining === 0) return finish();
    // one shared completion callback for plain sends; asks need their own to carry the reply
    const done = () => {
      if (--remaining === 0) finish();
    };
    for (let i = 0; i < task.to.length; i++) {
      const askId = task.askIds[i]!;
      if (askId === 0) {
        sys.deliver(task.to[i]!, task.msgs[i]!, done);
        continue;
      }
      sys.deliver(task.to[i]!, task.msgs[i]!, (err, value) => {
        replies.push(
          err
            ? { askId, ok: false, error: { code: (err as { code?: string }).code ?? 'ACTOR_FAILED', message: describeError(err) } }
            : { askId, ok: true, value },
        );
        done();
      });
    }
  });
}

export default function handle(task: WorkerTask): Promise<WorkerResult> {
  // Chain the enqueue step so batches enter mailboxes strictly in arrival order, even while the
  // first batch is still importing behaviour modules.
  let completion!: Promise<WorkerResult>;
  const entered = chain
    .then(() => Promise.all(Object.entries(task.kinds).map(([k, u]) => loadKind(k, u))))
    .then(() => {
      completion = enqueue(task);
    });
  chain = entered.catch(() => undefined);
  return entered.then(() => completion);
}
