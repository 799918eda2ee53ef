// A runner over some services with one fresh session, and short ways to talk to it.

import {
  Runner,
  type BaseAgent,
  type BasePlugin,
  type Event,
  type RunConfig,
  type Session,
} from '../../src/index.ts';
import { collect, userMessage } from './helpers.ts';
import type { Services } from './service-kinds.ts';

export const appName = 'app';
export const userId = 'ada';

export interface RunnerSession {
  runner: Runner;
  session: Session;
  sessionId: string;
  /** Runs a turn with this text and returns everything it yielded. */
  run(text: string, runConfig?: RunConfig): Promise<Event[]>;
  /** Starts a turn with this text: its events, to read (or stop reading) as they come. */
  stream(text: string): AsyncGenerator<Event, void>;
  /** The session as stored now. */
  read(): Promise<Session>;
  rewind(rewindBeforeInvocationId: string): Promise<Event>;
}

export async function openRunnerSession(
  services: Services,
  agent: BaseAgent,
  options: {
    state?: Record<string, unknown>;
    resumable?: boolean;
    plugins?: readonly BasePlugin[];
  } = {},
): Promise<RunnerSession> {
  const runner = new Runner({
    appName,
    agent,
    sessionService: services.sessionService,
    artifactService: services.artifactService,
    ...(options.resumable ? { resumabilityConfig: { isResumable: true } } : {}),
    ...(options.plugins ? { plugins: options.plugins } : {}),
  });
  const session = await services.sessionService.createSession({
    appName,
    userId,
    ...(options.state ? { state: options.state } : {}),
  });
  const sessionId = session.id;
  return {
    runner,
    session,
    sessionId,
    run: (text, runConfig) =>
      collect(
        runner.runAsync({
          userId,
          sessionId,
          newMessage: userMessage(text),
          ...(runConfig ? { runConfig } : {}),
        }),
      ),
    stream: (text) => runner.runAsync({ userId, sessionId, newMessage: userMessage(text) }),
    read: async () => (await services.sessionService.getSession({ appName, userId, sessionId }))!,
    rewind: (rewindBeforeInvocationId) =>
      runner.rewindAsync({ userId, sessionId, rewindBeforeInvocationId }),
  };
}
