import { createECDH } from 'node:crypto';
import { NewsaggError } from '../../runtime/errors.js';

/**
 * VAPID keys (RFC 8292): an ECDSA P-256 key pair whose public half browsers bind a subscription
 * to (`applicationServerKey`) and whose private half signs every push request's JWT. Keys travel
 * as base64url: the public key is the 65-byte uncompressed point, the private key the 32-byte
 * scalar.
 */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export class VapidKeyError extends NewsaggError {
  constructor(message: string, cause?: unknown) {
    super('VAPID_KEY_INVALID', message, { cause });
  }
}

/** A fresh key pair. */
export function generateVapidKeys(): VapidKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const priv = ecdh.getPrivateKey();
  // the scalar may come back shorter when it starts with zero bytes
  const scalar = priv.length === 32 ? priv : Buffer.concat([Buffer.alloc(32 - priv.length), priv]);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: scalar.toString('base64url') };
}

/** The pair of a private key (base64url, 32 bytes); throws VapidKeyError when it is not one. */
export function vapidKeysFromPrivate(privateKey: string): VapidKeys {
  const raw = /^[A-Za-z0-9_-]+$/.test(privateKey) ? Buffer.from(privateKey, 'base64url') : Buffer.alloc(0);
  if (raw.length !== 32) throw new VapidKeyError('a VAPID private key is the base64url of 32 bytes');
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(raw);
  } catch (err) {
    throw new VapidKeyError('not a P-256 private key', err);
  }
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: raw.toString('base64url') };
}
