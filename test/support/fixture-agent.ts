// An app session whose agent answers on a model of the fixture server (test/support/model-server),
// and a run's events collected with how it ended.

import type { Event } from '../../src/index.ts';
import type { AppRuntime } from '../../workers/app.ts';

/**
 * A new session of an agent (no tools, resumable; named `sky`, then `sky2`…) on `model` at the
 * fixture server `url` (the provider "Fixture", made once).
 */
export async function fixtureSession(
  runtime: AppRuntime,
  url: string,
  model: string,
): Promise<string> {
  const provider =
    (await runtime.providers.list()).find((known) => known.name === 'Fixture') ??
    (await runtime.providers.save({
      kind: 'openai-compatible',
      name: 'Fixture',
      baseUrl: `${url}/v1`,
      defaultModel: 'fixture-text',
    }));
  const agents = (await runtime.agentSpecs.list()).length;
  const { saved } = await runtime.agentSpecs.save({
    name: agents === 0 ? 'sky' : `sky${agents + 1}`,
    description: '',
    providerId: provider.id,
    model,
    instruction: 'Answer.',
    tools: [],
    subAgentIds: [],
    resumable: true,
  });
  return (await runtime.createSession(saved!.agentId)).id;
}

/** Every event a run handed its listener, and its error if it failed. */
export async function runEvents(
  start: (onEvent: (event: Event) => void) => Promise<void>,
): Promise<{ events: Event[]; error?: Error }> {
  const events: Event[] = [];
  try {
    await start((event) => events.push(event));
    return { events };
  } catch (error) {
    return { events, error: error as Error };
  }
}
