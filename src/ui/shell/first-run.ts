// The first-run card: on a fresh browser (no session with anything in it, no provider), the
// chat says where to start: a demo that answers offline, a provider from its preset, a local
// model. Once the user has taken one of them, or dismissed the card, or done anything of the
// kind on their own (a message sent, a provider added), it is gone for good in this browser.

import type { RuntimeBroadcast, SessionSummary } from '../../../workers/protocol.ts';
import { hasWork } from '../workbench/open-session-model.ts';
import type { RuntimeClient } from '../workbench/workbench-state.ts';
import { ViewState } from '../workbench/view-state.ts';

/** DO NOT CHANGE: the card would come back for everyone who dismissed it. */
const DONE_KEY = 'trellis-first-run-done';

/** A demo the card offers: its agent, and the message that shows what it does. */
export interface DemoStart {
  agentId: string;
  label: string;
  message: string;
}

export const DEMO_STARTS: readonly DemoStart[] = [
  { agentId: 'state-keeper', label: 'Session state', message: 'set color to red' },
  { agentId: 'writing-workflow', label: 'A workflow with approval', message: 'tea' },
  { agentId: 'example:support', label: 'A support flow', message: 'Is invoice INV-1042 paid?' },
];

export class FirstRun extends ViewState<{ show: boolean }> {
  private checked = false;
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly client: Pick<RuntimeClient, 'runtime' | 'onBroadcast'>,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'>,
  ) {
    super({ show: false });
  }

  /** Looks once, when the sessions are first known: shown only if nothing was made yet. */
  async check(sessions: readonly SessionSummary[]): Promise<void> {
    if (this.checked) return;
    this.checked = true;
    if (this.done()) return;
    if (sessions.some(hasWork)) return this.finish();
    const providers = await this.client.runtime.listProviders().catch(() => []);
    if (providers.length > 0) return this.finish();
    this.set({ show: true });
    // A provider added anywhere (the Providers view, another tab) is a start made.
    this.stopListening = this.client.onBroadcast((message: RuntimeBroadcast) => {
      if (message.type === 'providers-changed') this.finish();
    });
  }

  /** The sessions changed: a message sent is a start made. */
  follow(sessions: readonly SessionSummary[]): void {
    if (this.state.show && sessions.some(hasWork)) this.finish();
  }

  /** Taken or dismissed: gone for good. */
  finish(): void {
    try {
      this.storage.setItem(DONE_KEY, '1');
    } catch {
      // Storage refused (a private window's quota): gone for this visit only.
    }
    this.stopListening?.();
    this.stopListening = undefined;
    if (this.state.show) this.set({ show: false });
  }

  private done(): boolean {
    try {
      return this.storage.getItem(DONE_KEY) !== null;
    } catch {
      return false;
    }
  }
}
