// Runs the fault tests put through kills and full disks: a workflow, a tool saving an artifact,
// and two runs that pause for an approval (the Writing workflow, the support flow); what a run
// left that the user sees, and the invariants of its log whatever happened to it.

import { expect } from 'vitest';
import {
  LlmAgent,
  REQUEST_CONFIRMATION_FUNCTION,
  Runner,
  ScriptedModel,
  SequentialAgent,
  activeEvents,
  functionCallsOf,
  functionResponsesOf,
  textOf,
  type BaseAgent,
  type Content,
  type Event,
  type InterruptedInvocation,
} from '../../src/index.ts';
import { CONFIRMATION_REQUIRED } from '../../src/agents/confirmation.ts';
import { EXAMPLE_FLOWS, createFlowAgent } from '../../src/demos/flow-demos.ts';
import { createStateKeeper } from '../../src/demos/state-keeper.ts';
import { INSTANT_DEMO, createWritingWorkflow } from '../../src/demos/writing-workflow.ts';
import { collect } from './helpers.ts';
import { appName, userId } from './runner-session.ts';
import type { Services } from './service-kinds.ts';

export interface Scenario {
  name: string;
  agent: () => BaseAgent;
  message: string;
  /** The turn pauses for an approval, whose answer is then cut off in turn. */
  approval: boolean;
}

export const scenarios: Scenario[] = [
  {
    name: 'a workflow',
    agent: () =>
      new SequentialAgent({
        name: 'flow',
        subAgents: ['draft', 'review'].map(
          (name) => new LlmAgent({ name, model: new ScriptedModel(() => `${name} done`) }),
        ),
      }),
    message: 'go',
    approval: false,
  },
  {
    name: 'the state keeper saving an artifact',
    agent: () => createStateKeeper(INSTANT_DEMO),
    message: 'save todo.txt as buy milk',
    approval: false,
  },
  {
    name: 'the Writing workflow',
    agent: () => createWritingWorkflow(INSTANT_DEMO),
    message: 'Tea',
    approval: true,
  },
  {
    name: 'the support flow',
    agent: () =>
      createFlowAgent(
        EXAMPLE_FLOWS.find((flow) => flow.name === 'support'),
        INSTANT_DEMO,
      ),
    message: 'Is invoice INV-1042 paid?',
    approval: true,
  },
  {
    name: 'the research-brief flow (parallel branches, an artifact)',
    agent: () =>
      createFlowAgent(
        EXAMPLE_FLOWS.find((flow) => flow.name === 'research-brief'),
        INSTANT_DEMO,
      ),
    message: 'Sourdough baking',
    approval: true,
  },
];

/** The id of the approval a run asks for. */
export function approvalId(events: readonly Event[]): string {
  const request = events
    .flatMap((event) => functionCallsOf(event.content))
    .find((call) => call.name === REQUEST_CONFIRMATION_FUNCTION);
  if (!request?.id) throw new Error('The run asked for no approval');
  return request.id;
}

export const approve = (requestId: string): Content => ({
  role: 'user',
  parts: [
    {
      functionResponse: {
        id: requestId,
        name: REQUEST_CONFIRMATION_FUNCTION,
        response: { confirmed: true },
      },
    },
  ],
});

/** What a run left that the user sees: the replies, the state and the artifacts. */
export async function outcome(
  services: Pick<Services, 'sessionService' | 'artifactService'>,
  sessionId: string,
) {
  const session = (await services.sessionService.getSession({ appName, userId, sessionId }))!;
  const active = activeEvents(session.events);
  const files = await services.artifactService.listArtifactKeys({ appName, userId, sessionId });
  return {
    replies: active
      .filter((event) => event.author !== 'user')
      .map((event) => textOf(event.content))
      .filter(Boolean),
    state: session.state,
    // A tool cut off after saving and before its answer was stored runs again, and must get
    // back the version it saved, not save another.
    files: await Promise.all(
      files.map(async (filename) => ({
        filename,
        versions: await services.artifactService.listVersions({
          appName,
          userId,
          sessionId,
          filename,
        }),
      })),
    ),
  };
}

/** The log's invariants, whatever the point of the kill. */
export function checkLog(events: readonly Event[]): void {
  const ids = events.map((event) => event.id);
  expect(new Set(ids).size).toBe(ids.length);
  // Every call answered at most once by the agents (a user's answer to an approval aside).
  const answers = new Map<string, number>();
  for (const event of activeEvents(events)) {
    if (event.author === 'user') continue;
    for (const { id, response } of functionResponsesOf(event.content)) {
      // A call waiting for approval is answered "confirmation required" first.
      if (id && response['error'] !== CONFIRMATION_REQUIRED)
        answers.set(id, (answers.get(id) ?? 0) + 1);
    }
  }
  for (const [id, count] of answers) expect(count, `answers to call ${id}`).toBe(1);
}

export const newRunner = (
  services: Pick<Services, 'sessionService' | 'artifactService'>,
  agent: BaseAgent,
) =>
  new Runner({
    appName,
    agent,
    ...services,
    resumabilityConfig: { isResumable: true },
    // The killed runner's lock went with it: its runs are not alive.
    runLiveness: () => false,
  });

/** Resumes the session's interrupted runs until none is left; the runs still listed after. */
export async function resumeAll(
  runner: Runner,
  sessionId: string,
): Promise<InterruptedInvocation[]> {
  for (let round = 0; round < 4; round++) {
    const runs = await runner.listInterruptedInvocations({ userId, sessionId });
    const next = runs.find((run) => run.status === 'interrupted');
    if (!next) return runs;
    await collect(runner.runAsync({ userId, sessionId, invocationId: next.invocationId }));
  }
  throw new Error('Resume did not move the run on: it is still offered');
}
