'use client';
import { InlayProvider, IntegrationsPage } from '@inlay/react';

export default function Page() {
  return (
    <InlayProvider baseUrl="/api/inlay" tokenUrl="/api/inlay/token">
      <IntegrationsPage />
    </InlayProvider>
  );
}
