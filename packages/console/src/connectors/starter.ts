/** What "New connector" starts from: a valid `DeclarativeConnector` with one action, to edit. */
export const STARTER = {
  id: 'my-api',
  name: 'My API',
  description: 'What this connector does',
  category: 'developer',
  icon: 'my-api',
  baseUrl: 'https://api.example.com/v1',
  auth: {
    type: 'apiKey',
    in: 'header',
    name: 'authorization',
    format: 'Bearer {apiKey}',
    fields: [{ name: 'apiKey', label: 'API key', type: 'password', required: true, secret: true }],
  },
  actions: [
    {
      id: 'get_item',
      name: 'Get item',
      description: 'Reads one item',
      kind: 'read',
      input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      request: { method: 'GET', path: '/items/{{ input.id }}' },
    },
  ],
};
