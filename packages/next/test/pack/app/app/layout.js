import '@inlay/react/styles.css';

export const metadata = { title: 'My Next.js host' };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
