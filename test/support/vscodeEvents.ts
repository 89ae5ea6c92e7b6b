// What of `vscode` an extension module's events need, for unit tests that stand vscode in with vi.mock:
// `vi.mock('vscode', async () => ({ ...(await import('../support/vscodeEvents')).vscodeEvents(), ... }))`.
export function vscodeEvents() {
  class EventEmitter<T> {
    private readonly listeners: ((v: T) => void)[] = [];
    event = (f: (v: T) => void) => {
      this.listeners.push(f);
      return { dispose() {} };
    };
    fire(v: T) {
      for (const f of this.listeners) f(v);
    }
    dispose() {}
  }
  class Disposable {
    constructor(private readonly f: () => void) {}
    dispose() {
      this.f();
    }
  }
  return { EventEmitter, Disposable };
}
