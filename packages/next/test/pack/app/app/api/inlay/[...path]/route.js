import { inlayRoute } from '@inlay/next';

// One signed-in user, alice, created in Inlay on her first visit (a real host reads its session here).
const currentUser = () => 'alice';

export const { GET, POST, PUT, PATCH, DELETE } = inlayRoute({
  serviceUrl: process.env.INLAY_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.INLAY_API_KEY ?? '',
  userId: currentUser,
  autoCreateUsers: { username: currentUser },
});
export const dynamic = 'force-dynamic';
