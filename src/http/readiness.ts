/**
 * Readiness gate behind `GET /readyz`: the service is ready once every tracked start-up
 * task (storage migrated, speech models loaded, …) has finished. A failed task keeps the
 * service unready and is reported by name.
 */
export class Readiness {
  private readonly pending = new Map<string, 'pending' | 'ready' | string>();

  /** Registers a start-up task; its promise settles the task's state. */
  track(name: string, task: Promise<unknown>): void {
    this.pending.set(name, 'pending');
    task.then(
      () => this.pending.set(name, 'ready'),
      (err: unknown) => this.pending.set(name, `failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  get ready(): boolean {
    for (const state of this.pending.values()) if (state !== 'ready') return false;
    return true;
  }

  /** State of each task, for the readiness response body. */
  report(): Record<string, string> {
    return Object.fromEntries(this.pending);
  }
}
