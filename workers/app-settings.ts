// Settings (the Settings menu's switches: workers/protocol.ts `Settings`) as the runtime reads
// and writes them in the app's store, each stored setting checked against its schema
// (settings-schema.ts): one that does not fit is read as absent, so the app runs on its default.

import type { IndexedDbAppStore } from '../src/store/app-store.ts';
import { DEFAULT_SETTINGS, type Settings } from './protocol.ts';
import { SETTING_NAMES, settingLabel } from './settings-schema.ts';

export async function readSettings(store: IndexedDbAppStore): Promise<Settings> {
  return { ...DEFAULT_SETTINGS, ...(await store.getSetting<Partial<Settings>>('settings')) };
}

/** The stored settings that do not fit their schema: the page says so once, on load. */
export async function readSettingProblems(
  store: IndexedDbAppStore,
): Promise<{ name: string; label: string; problem: string }[]> {
  await Promise.all(SETTING_NAMES.map((name) => store.getSetting(name)));
  return store.settingProblems().map((found) => ({ ...found, label: settingLabel(found.name) }));
}

export async function writeSettings(
  store: IndexedDbAppStore,
  patch: Partial<Settings>,
): Promise<Settings> {
  const next = { ...(await readSettings(store)), ...patch };
  await store.putSetting('settings', next);
  return next;
}
