import crypto from 'node:crypto';

type OneShotHash = (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string;
/** crypto.hash (Node ≥ 20.12): no Hash object per call, about 3x cheaper for the small inputs hashed here. */
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;

/** The sha1 of `data` (a string as UTF-8) as 40 hex digits. */
export const sha1Hex: (data: string | Uint8Array) => string = oneShot
  ? (data) => oneShot('sha1', data, 'hex')
  : (data) => crypto.createHash('sha1').update(data).digest('hex');
