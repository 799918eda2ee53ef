import { useEffect, useRef, useState } from 'preact/hooks';
import type { Settings, Theme } from '../../../workers/protocol.ts';

interface Props {
  settings: Settings;
  onChange: (patch: Partial<Settings>) => void;
  onProviders: () => void;
  onAdkServers: () => void;
  onToolServers: () => void;
  onBackup: () => void;
  onSecurity: () => void;
  onMemory: () => void;
  onPrompts: () => void;
  onKnowledge: () => void;
}

/**
 * The header's Settings: resuming, the demos' pace, titles written by the model, the theme, the
 * way to Providers and ADK servers. A menu as menus go: Escape closes it (the focus back on
 * Settings), and so does a click anywhere else.
 */
export function SettingsMenu({
  settings,
  onChange,
  onProviders,
  onAdkServers,
  onToolServers,
  onBackup,
  onSecurity,
  onMemory,
  onPrompts,
  onKnowledge,
}: Props) {
  const menu = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return;
    const details = menu.current!;
    const outside = (event: PointerEvent) => {
      if (!details.contains(event.target as Node)) details.removeAttribute('open');
    };
    // In the capture phase, wherever the focus is: the menu's Escape, not a run's Stop (App's).
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      details.removeAttribute('open');
      details.querySelector('summary')?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape, true);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape, true);
    };
  }, [open]);
  return (
    <details class="settings" ref={menu} onToggle={(event) => setOpen(event.currentTarget.open)}>
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
        <label title="After a first answer, a provider's model titles the session (the demo and local models only when asked: a session's ⋯ → Write a title)">
          <input
            type="checkbox"
            checked={settings.modelTitles}
            onChange={(event) => onChange({ modelTitles: event.currentTarget.checked })}
          />{' '}
          Titles written by the model
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
            onMemory();
          }}
        >
          Memory
        </button>
        <button
          type="button"
          onClick={(event) => {
            event.currentTarget.closest('details')?.removeAttribute('open');
            onPrompts();
          }}
        >
          Prompts
        </button>
        <button
          type="button"
          onClick={(event) => {
            event.currentTarget.closest('details')?.removeAttribute('open');
            onKnowledge();
          }}
        >
          Knowledge
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
        <button
          type="button"
          onClick={(event) => {
            event.currentTarget.closest('details')?.removeAttribute('open');
            onSecurity();
          }}
        >
          Security
        </button>
      </div>
    </details>
  );
}
