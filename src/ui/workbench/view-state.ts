// The state a view model holds: an immutable snapshot that components subscribe to, replaced by
// each change (so Preact's equality checks see every update).

export abstract class ViewState<S extends object> {
  private readonly listeners = new Set<() => void>();

  protected constructor(protected state: S) {}

  get snapshot(): S {
    return this.state;
  }

  /** Calls `listener` after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected set(patch: Partial<S>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}
