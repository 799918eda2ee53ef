// The two kinds of services, so that one contract suite runs against both.

import 'fake-indexeddb/auto';
import {
  IndexedDbArtifactService,
  IndexedDbSessionService,
  InMemoryArtifactService,
  InMemorySessionService,
  type BaseArtifactService,
  type BaseSessionService,
} from '../../src/index.ts';
import { freshDbName } from './helpers.ts';

export interface Services {
  sessionService: BaseSessionService;
  artifactService: BaseArtifactService;
  /**
   * The same storage seen by brand-new service instances, as after a reload (the old instances
   * are closed). In-memory services have no storage of their own, so they come back as they are.
   */
  restart(): Promise<Services>;
  close(): Promise<void>;
}

export interface ServiceKind {
  name: string;
  persistent: boolean;
  open(): Services;
}

export const inMemoryKind: ServiceKind = {
  name: 'in-memory',
  persistent: false,
  open() {
    const services: Services = {
      sessionService: new InMemorySessionService(),
      artifactService: new InMemoryArtifactService(),
      restart: async () => services,
      close: async () => undefined,
    };
    return services;
  },
};

export function openIndexedDb(dbName: string): Services {
  const sessionService = new IndexedDbSessionService({ dbName });
  const artifactService = new IndexedDbArtifactService({ dbName });
  const close = async () => {
    await sessionService.close();
    await artifactService.close();
  };
  return {
    sessionService,
    artifactService,
    close,
    restart: async () => {
      await close();
      return openIndexedDb(dbName);
    },
  };
}

export const indexedDbKind: ServiceKind = {
  name: 'IndexedDB',
  persistent: true,
  open: () => openIndexedDb(freshDbName()),
};

export const serviceKinds = [inMemoryKind, indexedDbKind];
