/**
 * Password hashing cost: median time of one scrypt hash at the configured cost (and its neighbours), so a
 * change of SCRYPT_LOG_N is a measured decision. Login pays one hash; so does every failed login.
 */
import { pathToFileURL } from 'node:url';
import { resetConfig } from '#runtime/config';
import { hashPassword, verifyPassword } from '#runtime/crypto';

export interface HashTiming {
  logN: number;
  medianMs: number;
}

export async function passwordHashTimings(logNs = [14, 15, 16], runs = 7): Promise<HashTiming[]> {
  Object.assign(process.env, {
    TABLE_NAME: 'bench',
    UPLOADS_BUCKET: 'bench',
    FANOUT_QUEUE_URL: 'http://127.0.0.1:9/q/fanout',
    DELIVERY_QUEUE_URL: 'http://127.0.0.1:9/q/delivery',
    APP_ORIGIN: 'http://localhost:3000',
  });
  const out: HashTiming[] = [];
  const saved = process.env.SCRYPT_LOG_N;
  for (const logN of logNs) {
    process.env.SCRYPT_LOG_N = String(logN);
    resetConfig();
    const times: number[] = [];
    const stored = await hashPassword('correct horse');
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await verifyPassword('correct horse', stored);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    out.push({ logN, medianMs: Math.round((times[Math.floor(runs / 2)] ?? 0) * 10) / 10 });
  }
  if (saved === undefined) delete process.env.SCRYPT_LOG_N;
  else process.env.SCRYPT_LOG_N = saved;
  resetConfig();
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await passwordHashTimings());
}
