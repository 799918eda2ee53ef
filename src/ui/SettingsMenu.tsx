import type { Settings, Theme } from '../../workers/protocol.ts';

interface Props {
  settings: Settings;
  onChange: (patch: Partial<Settings>) => void;
  onProviders: () => void;
  onAdkServers: () => void;
  onToolServers: () => void;
  onBackup: () => void;
}

/** The header's Settings: resuming, the demos' pace, the theme, the way to Providers and ADK servers. */
export function SettingsMenu({
  settings,
  onChange,
  onProviders,
  onAdkServers,
  onToolServers,
  onBackup,
}: Props) {
  return (
    <details class="settings">
      <summary>Settings</summary>
      <div class="settings-menu">
        <label>
          <input
            type="checkbox"
            checked={settings.autoResume}
            onChange={(event) => onChange({ autoResume: event.currentTarget.checked })}
          />{' '}
          Resume interrupted runs automatically after a reload
        </label>
        <label>
          <input
            type="checkbox"
            checked={settings.demoPace === 'instant'}
            onChange={(event) =>
              onChange({ demoPace: event.currentTarget.checked ? 'instant' : 'visible' })
            }
          />{' '}
          Instant demos (no pause per step)
        </label>
        <label>
          Theme{' '}
          <select
            value={settings.theme}
            onChange={(event) => onChange({ theme: event.currentTarget.value as Theme })}
          >
            <option value="system">As the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <button
          type="button"
          onClick={(event) => {
            event.currentTarget.closest('details')?.removeAttribute('open');
            onProviders();
          }}
        >
          Providers
        </button>
        <button
          type="button"
          onClick={(event) => {
            event.currentTarget.closest('details')?.removeAttribute('open');
            onAdkServers();
          }}
        >
          ADK servers
        </button>
        <button
          type="button"
          onClick={(event) => {
            event.currentTarget.closest('details')?.removeAttribute('open');
            onToolServers();
          }}
        >
          Tool servers
        </button>
        <button
          type="button"
          onClick={(event) => {
            event.currentTarget.closest('details')?.removeAttribute('open');
            onBackup();
          }}
        >
          Back up &amp; restore
        </button>
      </div>
    </details>
  );
}
