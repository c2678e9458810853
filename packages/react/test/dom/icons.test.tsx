// @vitest-environment jsdom
// Connector icons load through `baseUrl` (the host's @inlay/express path), not from the service's origin.
import { createUserClient } from '@inlay/client';
import { cleanup, render } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { Icon } from '../../src/components/States.tsx';
import { InlayProvider } from '../../src/index.ts';

afterEach(cleanup);

const iconSrc = (baseUrl: string, src: string) => {
  const { container } = render(
    <InlayProvider client={createUserClient({ baseUrl })}>
      <Icon src={src} />
    </InlayProvider>,
  );
  return container.querySelector('img')!.getAttribute('src');
};

it.each([
  [
    '/api/inlay',
    'https://inlay.example.com/connectors/slack/icon.svg',
    '/api/inlay/connectors/slack/icon.svg',
  ],
  [
    '/api/inlay/',
    'https://inlay.example.com/connectors/crm/icon.svg?key=0b7c9d3e-5f1a-4c2b-9e8d-7a6f5e4d3c2b',
    '/api/inlay/connectors/crm/icon.svg?key=0b7c9d3e-5f1a-4c2b-9e8d-7a6f5e4d3c2b',
  ],
  [
    'https://host.example/inlay',
    'https://inlay.example.com/svc/connectors/acme/icon.svg',
    'https://host.example/inlay/connectors/acme/icon.svg',
  ],
  ['/api/inlay', 'data:image/svg+xml,<svg/>', 'data:image/svg+xml,<svg/>'],
])('baseUrl %s: %s loads from %s', (baseUrl, src, want) => {
  expect(iconSrc(baseUrl, src)).toBe(want);
});
