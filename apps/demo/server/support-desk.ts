import express, { type Router } from 'express';

/**
 * A stand-in support desk that speaks the Freshdesk API v2 paths Inlay's `freshdesk` connector calls, signed in
 * with an API key (HTTP Basic, the key as the user name) rather than OAuth: the demo's offline way to try an
 * API-key connection. The key and the helpdesk domain are shown on the sandbox's home page.
 */
export const SUPPORT_DESK = { apiKey: 'sandbox-desk-key-1234', domain: 'acme' } as const;

export interface SupportTicket {
  id: number;
  subject: string;
  description: string;
  email: string;
  status: number;
  priority: number;
  created_at: string;
  updated_at: string;
}

/** The desk's routes, mounted at `/freshdesk/api` (the connector's base URL in the demo). */
export function supportDeskApi(tickets: SupportTicket[]): Router {
  const r = express.Router();
  // Every call carries the key: `Authorization: Basic base64(<key>:X)`. Another key is refused, as the real desk does.
  r.use((req, res, next) => {
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const user = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':')[0] : undefined;
    if (user !== SUPPORT_DESK.apiKey) {
      res
        .status(401)
        .json({ code: 'invalid_credentials', message: 'You have to be logged in to perform this action.' });
      return;
    }
    next();
  });
  r.get('/agents/me', (_req, res) => {
    res.json({ id: 1, contact: { name: 'Acme support (sandbox)', email: 'support@acme.test' } });
  });
  r.post('/tickets', (req, res) => {
    const b = req.body as Record<string, unknown>;
    const at = new Date().toISOString();
    const ticket: SupportTicket = {
      id: 100 + tickets.length + 1,
      subject: String(b.subject ?? ''),
      description: String(b.description ?? ''),
      email: String(b.email ?? ''),
      status: Number(b.status ?? 2),
      priority: Number(b.priority ?? 1),
      created_at: at,
      updated_at: at,
    };
    tickets.push(ticket);
    res
      .status(201)
      .json({ ...ticket, type: null, requester_id: 1, responder_id: null, group_id: null, tags: [] });
  });
  return r;
}
