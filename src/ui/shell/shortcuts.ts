// The app's keyboard shortcuts as the `?` dialog lists them (KeyboardShortcuts.tsx). Data, kept
// beside the code that handles each key (named in the comment): a shortcut added or changed
// there is added or changed here, or the dialog lies.

export interface Shortcut {
  /** The keys, each as its key cap says it ("Ctrl", "Enter"); ⌘ stands in for Ctrl on a Mac. */
  keys: string[];
  what: string;
}

export interface ShortcutGroup {
  name: string;
  shortcuts: Shortcut[];
}

export const SHORTCUTS: ShortcutGroup[] = [
  {
    name: 'Anywhere',
    shortcuts: [
      // shell/KeyboardShortcuts.tsx
      { keys: ['?'], what: 'Show these shortcuts (when not typing in a field)' },
      // shell/App.tsx
      { keys: ['Esc'], what: 'Stop the running reply; close a menu or a dialog' },
      // search/SearchLauncher.tsx
      { keys: ['Ctrl', 'K'], what: 'Search sessions' },
      // shell/SkipLink.tsx
      { keys: ['Tab'], what: 'First on the page: skip to the message box' },
    ],
  },
  {
    name: 'Message box',
    shortcuts: [
      // chat/Composer.tsx
      { keys: ['Enter'], what: 'Send' },
      { keys: ['Shift', 'Enter'], what: 'New line' },
      { keys: ['↑'], what: 'In an empty box: edit your last message' },
      // prompts/use-prompt-picker.ts
      { keys: ['/'], what: 'At the start of a line: insert a saved prompt' },
      { keys: ['↑', '↓'], what: 'Choose among the prompts listed' },
      { keys: ['Tab'], what: 'Or Enter: insert the prompt chosen (Esc closes the list)' },
    ],
  },
  {
    name: 'Editing a message',
    shortcuts: [
      // chat/MessageEditor.tsx
      { keys: ['Ctrl', 'Enter'], what: 'Save and send the edited message' },
      { keys: ['Esc'], what: 'Cancel the edit' },
    ],
  },
  {
    name: 'Sessions and views',
    shortcuts: [
      // sessions/SessionRow.tsx
      { keys: ['F2'], what: 'Rename the session focused in the list' },
      // trace/TraceView.tsx
      { keys: ['↑', '↓'], what: 'Move between the spans of a trace' },
    ],
  },
  {
    name: 'Flow canvas',
    shortcuts: [
      // flows/canvas/use-canvas-keys.ts
      { keys: ['Ctrl', 'Z'], what: 'Undo' },
      { keys: ['Ctrl', 'Shift', 'Z'], what: 'Redo (also Ctrl+Y)' },
      { keys: ['Ctrl', 'C'], what: 'Copy the selected nodes (Ctrl+X cuts, Ctrl+V pastes)' },
      { keys: ['Ctrl', 'A'], what: 'Select every node' },
    ],
  },
];
