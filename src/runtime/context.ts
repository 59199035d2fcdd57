import type { ActorContext, Address, Message } from './actor.js';
import type { ActorCell } from './cell.js';
import type { Logger } from './log.js';
import type { ActorSystem } from './system.js';

/**
 * An actor's context: one small object per actor with its methods on the prototype (closures
 * per actor cost hundreds of bytes each, which adds up at 50,000 publishers); the child logger
 * is made on first use.
 */
export class CellContext implements ActorContext {
  private childLog: Logger | null = null;

  constructor(
    private readonly system: ActorSystem,
    private readonly cell: ActorCell,
  ) {}

  get self(): Address {
    return this.cell.address;
  }

  get kind(): string {
    return this.cell.kind;
  }

  get key(): string {
    return this.cell.key;
  }

  get log(): Logger {
    return (this.childLog ??= this.system.log.child({ actor: this.cell.address }));
  }

  now(): number {
    return this.system.clock.now();
  }

  send<M extends Message>(to: Address, msg: M): void {
    this.system.send(to, msg);
  }

  ask<R = unknown, M extends Message = Message>(to: Address, msg: M, timeoutMs?: number): Promise<R> {
    return this.system.ask<R, M>(to, msg, timeoutMs);
  }

  schedule<M extends Message>(delayMs: number, msg: M, id: string = msg.type): void {
    this.system.scheduleFor(this.cell, delayMs, msg, id);
  }

  cancelTimer(id: string): void {
    this.system.timers.cancel(`${this.cell.address}#t:${id}`);
  }

  stop(): void {
    this.cell.stopRequested = true;
  }
}
