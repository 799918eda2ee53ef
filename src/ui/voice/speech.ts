// The browser's speech APIs, where it has them: speech recognition (Chrome's and Safari's
// `webkitSpeechRecognition`, the standard `SpeechRecognition`) for dictation, and
// `speechSynthesis` for Read aloud. Feature detection only, at the moment of use: where an API is
// missing its button is not drawn (a test may define a fake before the page loads).

/** The part of the Web Speech API's SpeechRecognition that dictation uses. */
export interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: RecognitionResults) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

/** A SpeechRecognitionEvent's results: each a list of alternatives, final or not yet. */
export interface RecognitionResults {
  results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }>;
}

type RecognitionClass = new () => Recognition;

export function recognitionClass(): RecognitionClass | undefined {
  const scope = globalThis as { SpeechRecognition?: unknown; webkitSpeechRecognition?: unknown };
  const found = scope.SpeechRecognition ?? scope.webkitSpeechRecognition;
  return typeof found === 'function' ? (found as RecognitionClass) : undefined;
}

export function canSpeak(): boolean {
  const scope = globalThis as {
    speechSynthesis?: { speak?: unknown };
    SpeechSynthesisUtterance?: unknown;
  };
  return (
    typeof scope.speechSynthesis?.speak === 'function' &&
    typeof scope.SpeechSynthesisUtterance === 'function'
  );
}

/** What a recognition error means to the user (the API's codes are not words). */
export function dictationError(code: string): string | undefined {
  switch (code) {
    case 'aborted':
      return undefined; // Stopped on purpose.
    case 'not-allowed':
    case 'service-not-allowed':
      return 'Microphone permission denied: allow it for this site to dictate.';
    case 'no-speech':
      return 'No speech was heard. Try again.';
    case 'audio-capture':
      return 'No microphone was found.';
    case 'network':
      return 'Dictation needs the speech service, and it could not be reached.';
    case 'language-not-supported':
      return 'Dictation does not support this language.';
    default:
      return `Dictation failed (${code.slice(0, 40)}).`;
  }
}

/** The message box's text with what was dictated after it (a space between the two). */
export function withDictated(base: string, dictated: string): string {
  const said = dictated.trim();
  if (!said) return base;
  return base && !/\s$/.test(base) ? `${base} ${said}` : base + said;
}

/** Everything heard so far, finals and the latest guess, as one text. */
export function heard({ results }: RecognitionResults): string {
  let text = '';
  for (let i = 0; i < results.length; i++) text += results[i]![0].transcript;
  return text;
}
