// The writing workflow: a demo of workflow agents, resume and human approval on the offline rule
// model. Draft a text about the user's topic → a loop of critic and reviser (at most two rounds,
// the critic ends it by escalating) → publish, which needs the user's approval → a final message.
// Every model step takes a visible moment, so that a reload in the middle of a run is real.

import { LlmAgent } from '../agents/llm-agent.ts';
import { LoopAgent } from '../agents/loop-agent.ts';
import { SequentialAgent } from '../agents/sequential-agent.ts';
import type { LlmRequest } from '../models/llm.ts';
import {
  DemoModel,
  callFunction,
  lastToolResponse,
  lastUserMessage,
} from '../models/demo-model.ts';
import { FunctionTool } from '../tools/function-tool.ts';

export interface DemoTiming {
  /** Pause before each model answer (default 600 ms). */
  thinkMs?: number;
  /** Pause before each streamed chunk (default 25 ms). */
  chunkDelayMs?: number;
}

/** The demo agents with no pauses (Settings → demo pace "instant", and tests). */
export const INSTANT_DEMO: DemoTiming = { thinkMs: 0, chunkDelayMs: 0 };

/** How many times `agentName` has spoken since the user's latest message. */
function turnsSinceUser(request: LlmRequest): number {
  const { index } = lastUserMessage(request);
  return request.contents.slice(index + 1).filter((content) => content.role === 'model').length;
}

const topicOf = (request: LlmRequest) =>
  lastUserMessage(request)
    .text.trim()
    .replace(/[.!?]+$/, '') || 'something';

export function createWritingWorkflow(timing: DemoTiming = {}): SequentialAgent {
  const pace = { thinkMs: timing.thinkMs ?? 600, chunkDelayMs: timing.chunkDelayMs ?? 25 };

  const drafter = new LlmAgent({
    name: 'drafter',
    description: 'Writes a first draft about the topic.',
    outputKey: 'draft',
    model: new DemoModel({
      ...pace,
      answer: (request) => {
        const topic = topicOf(request);
        return `Draft: ${topic} is worth a closer look. Here are three things to know about ${topic}, in plain words.`;
      },
    }),
  });

  const exitLoop = new FunctionTool({
    name: 'exit_loop',
    description: 'Ends the review loop: the draft is good enough.',
    execute: (_, ctx) => {
      ctx.actions.escalate = true;
      ctx.actions.skipSummarization = true;
      return { message: 'The draft is ready.' };
    },
  });
  const critic = new LlmAgent({
    name: 'critic',
    description: 'Reviews the draft; ends the loop when it is good enough.',
    tools: [exitLoop],
    outputKey: 'critique',
    model: new DemoModel({
      ...pace,
      answer: (request) =>
        turnsSinceUser(request) === 0
          ? `Critique: the draft about ${topicOf(request)} needs one concrete example.`
          : callFunction('exit_loop', {}),
    }),
  });

  const reviser = new LlmAgent({
    name: 'reviser',
    description: 'Revises the draft after the critique.',
    outputKey: 'draft',
    model: new DemoModel({
      ...pace,
      answer: (request) => {
        const topic = topicOf(request);
        return `Revised draft: ${topic} is worth a closer look. For example, most people meet ${topic} every week without noticing. Here are three things to know about it.`;
      },
    }),
  });

  const publish = new FunctionTool<{ title: string }>({
    name: 'publish',
    description: 'Publishes the draft as post.md',
    parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    requireConfirmation: true,
    execute: async ({ title }, ctx) => {
      const draft = ctx.state.get<string>('draft') ?? '';
      const version = await ctx.saveArtifact('post.md', {
        text: `# ${title}\n\n${draft.replace(/^(Revised )?[Dd]raft: /, '')}\n`,
      });
      ctx.state.set('published_title', title);
      return { published: title, file: 'post.md', version };
    },
  });
  const publisher = new LlmAgent({
    name: 'publisher',
    description: 'Publishes the final draft, once the user approves.',
    tools: [publish],
    model: new DemoModel({
      ...pace,
      answer: (request) => {
        const response = lastToolResponse(request)?.response;
        if (!response) return callFunction('publish', { title: `Notes on ${topicOf(request)}` });
        if (typeof response.error === 'string') {
          return `Workflow complete: the post was not published (${response.error.replace(/\.$/, '')}).`;
        }
        return `Publishing complete: "${String(response.published)}" is saved as post.md.`;
      },
    }),
  });

  return new SequentialAgent({
    name: 'writing_workflow',
    description: 'Offline demo: draft, critique and revise, then publish with your approval.',
    subAgents: [
      drafter,
      new LoopAgent({ name: 'review_loop', subAgents: [critic, reviser], maxIterations: 2 }),
      publisher,
    ],
  });
}
