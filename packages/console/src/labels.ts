import type { AuthType, ConnectorCategory } from '@inlay/contract';

/** How a connector's user signs in, in words. */
export const AUTH_TYPE_LABELS: Record<AuthType, string> = {
  oauth2: 'OAuth (sign in with the app)',
  apiKey: 'API key',
  basic: 'Username and password',
  none: 'No sign-in',
};

/** A connector category, in words. */
export const CATEGORY_LABELS: Record<ConnectorCategory, string> = {
  communication: 'Communication',
  crm: 'CRM',
  developer: 'Developer tools',
  productivity: 'Productivity',
  'project-management': 'Project management',
  marketing: 'Marketing',
  payments: 'Payments',
  ecommerce: 'E-commerce',
  support: 'Customer support',
  data: 'Data',
  utility: 'Utilities',
};

/** "1 attempt", "2 attempts". */
export const attempts = (n: number) => `${n} ${n === 1 ? 'attempt' : 'attempts'}`;
