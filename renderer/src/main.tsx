import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from './client/create-client.js';
import { setClient } from './state/client.js';
import { startWiring } from './state/wiring.js';
import { App } from './components/App.js';
import './styles.css';
import './room.css';
import './prompts.css';
import './conversation.css';

setClient(createClient());
startWiring();

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
