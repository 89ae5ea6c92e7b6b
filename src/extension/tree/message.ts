// The Benchmarks view's message, shared by the filters that narrow the tree (the sample filter, the labels' step
// filter): each sets its own part, and the view shows them together, the sample first.
import type * as vscode from 'vscode';

export type MessagePart = 'project' | 'adjudication' | 'sample' | 'steps';
const ORDER: readonly MessagePart[] = ['project', 'adjudication', 'sample', 'steps'];

export class TreeMessage {
  private readonly parts = new Map<MessagePart, string>();

  constructor(private readonly view: Pick<vscode.TreeView<unknown>, 'message'>) {}

  set(part: MessagePart, text: string | undefined): void {
    if (text) this.parts.set(part, text);
    else this.parts.delete(part);
    const shown = ORDER.flatMap((p) => this.parts.get(p) ?? []);
    this.view.message = shown.length ? shown.join(' ') : undefined;
  }
}
