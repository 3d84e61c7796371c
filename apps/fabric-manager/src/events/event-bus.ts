/**
 * In-process fan-out of stored events to live subscribers. Each subscriber gets its own bounded
 * queue; one that falls more than `limit` events behind is closed with an error, and resumes from
 * its cursor (the store has every event), rather than growing the service's memory without bound.
 */
export class EventBus<T> {
  private readonly subscribers = new Set<(value: T) => void>();

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  publish(value: T): void {
    for (const subscriber of this.subscribers) subscriber(value);
  }

  subscribe(limit = 10_000): BufferedSubscription<T> {
    const subscription = new BufferedSubscription<T>(limit, () => this.subscribers.delete(push));
    const push = (value: T) => subscription.push(value);
    this.subscribers.add(push);
    return subscription;
  }
}

export class SubscriberOverflowError extends Error {}

export class BufferedSubscription<T> {
  private readonly queue: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | null = null;
  private failing: ((error: unknown) => void) | null = null;
  private closed = false;
  private error: Error | null = null;

  constructor(
    private readonly limit: number,
    private readonly onClose: () => void,
  ) {}

  push(value: T): void {
    if (this.closed) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = this.failing = null;
      resolve({ value, done: false });
      return;
    }
    if (this.queue.length >= this.limit) {
      this.error = new SubscriberOverflowError(`subscriber fell ${this.limit} events behind; resume from the last cursor received`);
      this.close();
      return;
    }
    this.queue.push(value);
  }

  /** Takes what arrived so far without waiting. */
  drain(): T[] {
    return this.queue.splice(0, this.queue.length);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.error) return Promise.reject(this.error);
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failing = reject;
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
    if (this.waiting) {
      const resolve = this.waiting;
      const reject = this.failing!;
      this.waiting = this.failing = null;
      if (this.error) reject(this.error);
      else resolve({ value: undefined, done: true });
    }
  }
}
