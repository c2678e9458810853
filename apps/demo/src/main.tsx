import { createRoot } from 'react-dom/client';
import '@inlay/react/styles.css';
import './app.css';
import { App } from './App.tsx';

createRoot(document.getElementById('root')!).render(<App />);
