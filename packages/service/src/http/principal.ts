/** Who a request acts for: an account (API key) or one of its users (JWT). */
export type Principal =
  | { kind: 'account'; accountId: string; apiKeyId: string }
  | { kind: 'user'; accountId: string; userId: string; tokenId: string };

declare global {
  namespace Express {
    interface Request {
      principal?: Principal;
      requestId: string;
    }
  }
}
