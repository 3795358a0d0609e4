/** Who a test user is (their user id, which is also their personal team's id), for the dashboard's browser tests. */
import { findUserIdByEmail } from '../../functions/accounts/user';

export async function userIdOf(email: string): Promise<string> {
  const id = await findUserIdByEmail(email.toLowerCase());
  if (!id) throw new Error(`no user ${email}`);
  return id;
}
