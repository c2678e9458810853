/** Who a request acts for: an account (API key) or one of its users (JWT). */
export type Principal =
  | {
      kind: 'account';
      accountId: string;
      apiKeyId: string;
      /** Set when the request came with a console session cookie instead of a bearer key. */
      session?: { id: string; csrfToken: string };
    }
  | { kind: 'user'; accountId: string; userId: string; tokenId: string };

declare global {
  namespace Express {
    interface Request {
      principal?: Principal;
      requestId: string;
    }
  }
}
