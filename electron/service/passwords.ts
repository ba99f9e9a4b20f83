import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

const currentCost: ScryptCost = { N: 16384, r: 8, p: 1 };
const keyLength = 64;
const maxmem = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, length: number, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, length, { ...cost, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$key`, so the cost can rise later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, keyLength, currentCost);
  const { N, r, p } = currentCost;
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const cost = { N: Number(N), r: Number(r), p: Number(p) };
  const actual = await derive(password, Buffer.from(salt, 'base64'), expected.length, cost);
  return timingSafeEqual(actual, expected);
}

/** A password nobody has to type: for generated accounts. */
export const generatePassword = () => randomBytes(18).toString('base64url');

/** 50 hex characters, like the tokens real servers hand out. */
export const generateSessionToken = () => randomBytes(25).toString('hex');

/**
 * What the store keeps of a session token: its SHA-256, so a copy of the database signs nobody
 * in. A token is 200 random bits, so a fast hash is enough; a slow one would cost every request.
 */
export const sessionTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
