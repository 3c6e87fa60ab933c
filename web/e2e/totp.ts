import { createHmac } from 'node:crypto'

/**
 * RFC 6238 TOTP (HMAC-SHA1, 6 digits, 30-second steps), the authenticator
 * app the admin tests play. Checked against the RFC's test vector in
 * totp.spec.ts.
 */
export function totp(secret: string, atMs = Date.now(), digits = 6): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / 30)))
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const value = mac.readUInt32BE(offset) & 0x7fffffff
  return String(value % 10 ** digits).padStart(digits, '0')
}

const lastStep = new Map<string, number>()

/**
 * A code the server has not seen: each works once, so when this secret's
 * code for the current 30-second step was already used, wait for the next.
 */
export async function freshCode(secret: string): Promise<string> {
  const step = () => Math.floor(Date.now() / 30_000)
  while (step() <= (lastStep.get(secret) ?? -1)) await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 50))
  lastStep.set(secret, step())
  return totp(secret)
}

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const c of text.replace(/[\s=]/g, '').toUpperCase()) {
    const v = alphabet.indexOf(c)
    if (v < 0) throw new Error(`not base32: ${c}`)
    bits += v.toString(2).padStart(5, '0')
  }
  const bytes = []
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2))
  return Buffer.from(bytes)
}
