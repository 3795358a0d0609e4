/**
 * The proof of work of a busy project's reports (issue 19; docs/decisions.md "Intake floods"): the altcha
 * challenge of registration (accounts/altcha.ts, one mechanism and one widget solver for both), signed with
 * a key of the intake's own. The intake is an anonymous function and holds no secrets (test/cdk/app.test.ts),
 * so the key is a random 256-bit value kept in the table (PROOFKEY/PROOFKEY, docs/data-model.md): made once
 * with a conditional put by the first instance that needs it, read once per instance, never sent out.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#runtime/aws/dynamo';
import { isConditionFailure, tableName } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { newChallenge, verifyProofOfWork } from '../accounts/altcha';

const keyItem = { pk: 'PROOFKEY', sk: 'PROOFKEY' };
let cached: Promise<string> | undefined;

async function loadKey(): Promise<string> {
  const read = async () => {
    const out = await db().send(
      new GetCommand({ TableName: tableName(), Key: keyItem, ConsistentRead: true }),
    );
    return typeof out.Item?.key === 'string' ? out.Item.key : undefined;
  };
  const found = await read();
  if (found) return found;
  try {
    const key = randomBytes(32).toString('hex');
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keyItem, key },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return key;
  } catch (err) {
    // Another instance made it first: theirs is the key.
    if (!isConditionFailure(err)) throw err;
    const theirs = await read();
    if (!theirs) throw err;
    return theirs;
  }
}

/** The intake's signing key; a failed load is tried again by the next call. */
function proofKey(): Promise<string> {
  cached ??= loadKey().catch((err: unknown) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

/**
 * A busy project's report carries a solved challenge issued for this project and not used before; else the
 * answer is PROOF_REQUIRED with a new challenge, `scale` times the configured work, in `fields.proof`
 * (docs/widget-api.md "Busy projects").
 */
export async function requireProof(
  projectId: string,
  scale: number,
  proof: string | undefined,
): Promise<void> {
  const purpose = { data: { use: 'report', project: projectId }, key: await proofKey() };
  if (proof && (await verifyProofOfWork(proof, purpose))) return;
  const challenge = await newChallenge({ ...purpose, scale });
  throw new AppError('PROOF_REQUIRED', { proof: JSON.stringify(challenge) });
}
