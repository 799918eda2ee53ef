// Keys at rest: an optional passphrase that encrypts the secrets the app stores (providers' API
// keys, tool servers' header values) with WebCrypto. Off by default.
//
// - The passphrase is never stored. PBKDF2-SHA256 (PBKDF2_ITERATIONS, a random 16-byte salt)
//   derives a non-extractable AES-GCM 256 key; each secret is sealed with a fresh 12-byte IV and
//   its place as additional data (`provider:<id>`), so a sealed value copied to another record
//   does not open there. The protection record (setting `keyProtection`) keeps the salt, the
//   count and a sealed check value that tells a wrong passphrase from the right one.
// - The key lives in this worker's memory only. A tab that opens while another is unlocked gets
//   the key from it over a BroadcastChannel of its own (a CryptoKey is structured-clonable and
//   stays non-extractable), so the page asks once per browser session, not once per tab; Lock
//   drops it in every tab.
// - Every change of protection (on, new passphrase, off, forgotten) rewrites every secret and the
//   record in one transaction (`rewriteSecrets`): a crash leaves the old state or the new, never
//   secrets sealed under a key the record does not describe.
// - Values stored before protection (plain strings) still read; unlocking seals any left plain.

import { base64ToBytes, bytesToBase64 } from '../../src/core/content.ts';
import { InvalidRequestError, KeysLockedError } from '../../src/core/errors.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import type { SealedSecret } from '../../src/store/database.ts';
import type { KeyStatus } from '../protocol.ts';

export type { SealedSecret };

/** PBKDF2 iterations for a new passphrase (OWASP's figure for PBKDF2-HMAC-SHA256, 2023). */
export const PBKDF2_ITERATIONS = 600_000;

/** The setting that holds the protection record. */
export const KEY_PROTECTION_SETTING = 'keyProtection';

/** The BroadcastChannel on which tabs' workers hand the key to each other. */
export const KEYS_CHANNEL = 'trellis-keys';

export interface KeyProtectionRecord {
  version: 1;
  kdf: 'PBKDF2-SHA256';
  iterations: number;
  /** Base64; also the protection's id (a new passphrase gets a new salt). */
  salt: string;
  /** CHECK_TEXT sealed at CHECK_PLACE: opens only with the right key. */
  check: SealedSecret;
}

export type { KeyStatus } from '../protocol.ts';

/** A stored secret: plain text (no passphrase, or stored before one was set) or sealed. */
export type StoredSecret = string | SealedSecret;

/** Where a secret sits, bound into its ciphertext. */
export type SecretPlace = string;

/** Rewrites one stored secret; `undefined` removes it. */
export type SecretRewrite = (
  value: StoredSecret,
  place: SecretPlace,
) => Promise<StoredSecret | undefined>;

/** Where the app keeps secrets: reads them and writes them back rewritten, in one transaction. */
export type SecretsRewriter = (
  rewrite: SecretRewrite,
  protection: KeyProtectionRecord | undefined,
) => Promise<void>;

/** What tabs say to each other on KEYS_CHANNEL. */
type KeysMessage =
  { type: 'want'; salt: string } | { type: 'key'; salt: string; key: CryptoKey } | { type: 'lock' };

export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export interface KeyVaultOptions {
  /** PBKDF2 iterations for a new passphrase (tests use fewer). */
  iterations?: number;
  /** Where other tabs' vaults are; none in Node tests unless given. */
  channel?: ChannelLike;
  /** Told when this tab's lock state or the protection changed. */
  onChange?: () => void;
}

const CHECK_PLACE = 'trellis:key-check';
const CHECK_TEXT = 'trellis';
const MIN_PASSPHRASE = 8;

export function isSealed(value: unknown): value is SealedSecret {
  const sealed = value as SealedSecret | null;
  return (
    typeof sealed === 'object' &&
    sealed !== null &&
    sealed.sealed === 'AES-GCM' &&
    typeof sealed.iv === 'string' &&
    typeof sealed.data === 'string'
  );
}

export class KeyVault {
  private key: CryptoKey | undefined;
  /** The salt of the protection the key belongs to. */
  private keySalt: string | undefined;
  private readonly iterations: number;
  /** Where secrets are rewritten; set by the app once its rooms exist. */
  private rewriter: SecretsRewriter | undefined;

  constructor(
    private readonly store: IndexedDbAppStore,
    private readonly options: KeyVaultOptions = {},
  ) {
    this.iterations = options.iterations ?? PBKDF2_ITERATIONS;
    options.channel?.addEventListener('message', (event) => {
      void this.heard(event.data as KeysMessage);
    });
  }

  useRewriter(rewriter: SecretsRewriter): void {
    this.rewriter = rewriter;
  }

  async status(): Promise<KeyStatus> {
    const record = await this.record();
    if (!record) return { protected: false, unlocked: true };
    if (this.keySalt !== record.salt) await this.askOtherTabs(record);
    return { protected: true, unlocked: this.keySalt === record.salt };
  }

  /** A secret to store: sealed when a passphrase protects secrets (KeysLockedError if locked). */
  async seal(text: string, place: SecretPlace): Promise<StoredSecret> {
    const record = await this.record();
    if (!record) return text;
    return seal(await this.keyFor(record), text, place);
  }

  /** A stored secret's text (KeysLockedError if it is sealed and this tab is locked). */
  async open(value: StoredSecret, place: SecretPlace): Promise<string> {
    if (!isSealed(value)) return value;
    const record = await this.record();
    if (!record) throw new KeysLockedError('This key was sealed by a passphrase that was removed');
    try {
      return await open(await this.keyFor(record), value, place);
    } catch (error) {
      if ((error as Error).name === 'KeysLockedError') throw error;
      throw new KeysLockedError(
        'A stored key could not be decrypted (it was sealed elsewhere): enter it again',
      );
    }
  }

  /** Protects every stored secret with a new passphrase; this tab stays unlocked. */
  async protect(passphrase: string): Promise<KeyStatus> {
    if (await this.record())
      throw new InvalidRequestError('Your keys are already protected: change the passphrase');
    await this.rewrite(passphrase);
    return this.status();
  }

  /** Unlocks with the passphrase (a wrong one is refused and changes nothing). */
  async unlock(passphrase: string): Promise<KeyStatus> {
    const record = await this.record();
    if (!record) return { protected: false, unlocked: true };
    const key = await derive(passphrase, record);
    if (!(await opens(key, record))) throw new InvalidRequestError('That is not the passphrase');
    this.hold(key, record.salt);
    this.options.channel?.postMessage({
      type: 'key',
      salt: record.salt,
      key,
    } satisfies KeysMessage);
    // Secrets stored plain before protection (or by an older tab) are sealed now.
    await this.rewriter?.(
      async (value, place) => (isSealed(value) ? value : seal(key, value, place)),
      record,
    );
    this.options.onChange?.();
    return this.status();
  }

  /** Forgets the key in every tab; the next use of a secret asks for the passphrase again. */
  lock(): void {
    this.drop();
    this.options.channel?.postMessage({ type: 'lock' } satisfies KeysMessage);
    this.options.onChange?.();
  }

  /** A new passphrase: the old one must be right; every secret is sealed again. */
  async change(oldPassphrase: string, newPassphrase: string): Promise<KeyStatus> {
    await this.unlock(oldPassphrase);
    await this.rewrite(newPassphrase);
    return this.status();
  }

  /** Removes the passphrase: every secret is stored plain again (the passphrase must be right). */
  async unprotect(passphrase: string): Promise<KeyStatus> {
    await this.unlock(passphrase);
    await this.rewrite(undefined);
    return this.status();
  }

  /**
   * The passphrase is lost: every sealed secret is deleted (providers and servers stay, without
   * their keys) and the protection with it.
   */
  async forget(): Promise<KeyStatus> {
    this.requireRewriter();
    await this.rewriter!(async (value) => (isSealed(value) ? undefined : value), undefined);
    this.drop();
    this.options.channel?.postMessage({ type: 'lock' } satisfies KeysMessage);
    this.options.onChange?.();
    return this.status();
  }

  /**
   * Opens every secret, seals it under `passphrase` (none: leaves it plain), and stores the new
   * protection record with them, in one transaction.
   */
  private async rewrite(passphrase: string | undefined): Promise<void> {
    this.requireRewriter();
    if (passphrase !== undefined && passphrase.length < MIN_PASSPHRASE)
      throw new InvalidRequestError(
        `A passphrase needs at least ${MIN_PASSPHRASE} characters (a sentence is best)`,
      );
    let next: { record: KeyProtectionRecord; key: CryptoKey } | undefined;
    if (passphrase !== undefined) {
      const salt = bytesToBase64(crypto.getRandomValues(new Uint8Array(16)));
      const shape = {
        version: 1 as const,
        kdf: 'PBKDF2-SHA256' as const,
        iterations: this.iterations,
        salt,
      };
      const key = await derive(passphrase, shape);
      next = { record: { ...shape, check: await seal(key, CHECK_TEXT, CHECK_PLACE) }, key };
    }
    await this.rewriter!(async (value, place) => {
      const text = await this.open(value, place);
      return next ? seal(next.key, text, place) : text;
    }, next?.record);
    if (next) {
      this.hold(next.key, next.record.salt);
      this.options.channel?.postMessage({
        type: 'key',
        salt: next.record.salt,
        key: next.key,
      } satisfies KeysMessage);
    } else this.drop();
    this.options.onChange?.();
  }

  private requireRewriter(): void {
    if (!this.rewriter) throw new Error('KeyVault: no secrets rewriter');
  }

  private async keyFor(record: KeyProtectionRecord): Promise<CryptoKey> {
    if (this.keySalt !== record.salt) await this.askOtherTabs(record);
    if (this.keySalt !== record.salt || !this.key)
      throw new KeysLockedError(
        'Your keys are locked: enter your passphrase (Settings → Security) to use them',
      );
    return this.key;
  }

  /** Asks the other tabs for the key, and waits a moment for one to answer. */
  private async askOtherTabs(record: KeyProtectionRecord): Promise<void> {
    const channel = this.options.channel;
    if (!channel) return;
    channel.postMessage({ type: 'want', salt: record.salt } satisfies KeysMessage);
    const until = Date.now() + 150;
    while (this.keySalt !== record.salt && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 15));
  }

  private async heard(message: KeysMessage): Promise<void> {
    if (message.type === 'lock') {
      if (this.key) {
        this.drop();
        this.options.onChange?.();
      }
      return;
    }
    const record = await this.record();
    if (!record || record.salt !== message.salt) return;
    if (message.type === 'want') {
      if (this.key && this.keySalt === record.salt)
        this.options.channel?.postMessage({ type: 'key', salt: record.salt, key: this.key });
      return;
    }
    if (this.keySalt === record.salt) return;
    if (await opens(message.key, record)) {
      this.hold(message.key, record.salt);
      this.options.onChange?.();
    }
  }

  private hold(key: CryptoKey, salt: string): void {
    this.key = key;
    this.keySalt = salt;
  }

  private drop(): void {
    this.key = undefined;
    this.keySalt = undefined;
  }

  private async record(): Promise<KeyProtectionRecord | undefined> {
    return this.store.getSetting<KeyProtectionRecord>(KEY_PROTECTION_SETTING);
  }
}

/** Base64 to bytes, as WebCrypto takes them. */
const bytesOf = (base64: string) => base64ToBytes(base64) as Uint8Array<ArrayBuffer>;

async function derive(
  passphrase: string,
  record: Pick<KeyProtectionRecord, 'salt' | 'iterations'>,
): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(passphrase),
    'PBKDF2',
    false,
    ['deriveKey'],
  );
  return crypto.subtle.deriveKey(
    {
      name: 'PBKDF2',
      hash: 'SHA-256',
      salt: bytesOf(record.salt),
      iterations: record.iterations,
    },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

async function seal(key: CryptoKey, text: string, place: SecretPlace): Promise<SealedSecret> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(place) },
    key,
    new TextEncoder().encode(text),
  );
  return { sealed: 'AES-GCM', iv: bytesToBase64(iv), data: bytesToBase64(new Uint8Array(data)) };
}

async function open(key: CryptoKey, sealed: SealedSecret, place: SecretPlace): Promise<string> {
  const text = await crypto.subtle.decrypt(
    {
      name: 'AES-GCM',
      iv: bytesOf(sealed.iv),
      additionalData: new TextEncoder().encode(place),
    },
    key,
    bytesOf(sealed.data),
  );
  return new TextDecoder().decode(text);
}

/** Whether `key` opens the record's check value (the passphrase was right). */
async function opens(key: CryptoKey, record: KeyProtectionRecord): Promise<boolean> {
  try {
    return (await open(key, record.check, CHECK_PLACE)) === CHECK_TEXT;
  } catch {
    return false;
  }
}
