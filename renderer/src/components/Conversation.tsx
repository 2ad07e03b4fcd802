// "Open conversation" in the Why panel: the messages around the call that made
// the checkpoint's change, read on demand from the agent's transcript
// (prompts:conversation) while it is still there — never a copy in the store.
// A modal dialog: the app behind is inert, Tab stays inside, Escape closes,
// focus goes back to the button.
import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { ConversationView } from '../../../shared/model.js';
import { client } from '../state/client.js';
import { InlineError } from './bits.js';
import { Icon } from './Icon.js';

const ROLE_NAMES = { user: 'Person', assistant: 'Assistant', tool: 'Tool result' } as const;

export function OpenConversation({ workspace, id }: { workspace: string; id: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="why-conversation" aria-haspopup="dialog" data-testid="why-open-conversation" onClick={() => setOpen(true)} title="The messages around this call, from the agent's transcript">
        Open conversation
      </button>
      {open && createPortal(<ConversationDialog workspace={workspace} id={id} onClose={() => setOpen(false)} />, document.body)}
    </>
  );
}

type Loaded = { state: 'loading' } | { state: 'ready'; view: ConversationView } | { state: 'error'; message: string };

function ConversationDialog({ workspace, id, onClose }: { workspace: string; id: string; onClose: () => void }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const panelRef = useRef<HTMLDivElement>(null);
  const titleId = useId();

  useEffect(() => {
    let live = true;
    client()
      .invoke('prompts:conversation', { workspace, id })
      .then((view) => live && setLoaded({ state: 'ready', view }))
      .catch((err: unknown) => live && setLoaded({ state: 'error', message: err instanceof Error ? err.message : String(err) }));
    return () => {
      live = false;
    };
  }, [workspace, id]);

  useEffect(() => {
    const root = document.getElementById('root');
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    root?.setAttribute('inert', '');
    panelRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        onClose();
      } else if (e.key === 'Tab' && panelRef.current) {
        // Only the close button and the scrolling list are focusable inside: keep Tab on them.
        const stops = [...panelRef.current.querySelectorAll<HTMLElement>('button, [tabindex="0"]')];
        if (stops.length === 0) return;
        const i = stops.indexOf(document.activeElement as HTMLElement);
        e.preventDefault();
        stops[(i + (e.shiftKey ? stops.length - 1 : 1)) % stops.length]?.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      root?.removeAttribute('inert');
      opener?.focus();
    };
  }, [onClose]);

  // The call's message in view when the list opens.
  useEffect(() => {
    if (loaded.state === 'ready') panelRef.current?.querySelector('[data-at-call="true"]')?.scrollIntoView({ block: 'center' });
  }, [loaded]);

  return (
    <div className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={panelRef} className="modal conversation-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} data-testid="conversation-dialog">
        <div className="modal-head">
          <div>
            <h2 id={titleId}>Conversation around the call</h2>
            <p className="muted small-text">Read now from the agent's transcript; nothing of it is kept by Chronoscope.</p>
          </div>
          <button type="button" className="icon-button" aria-label="Close conversation" title="Close (Escape)" onClick={onClose}>
            <Icon name="x" size={14} />
          </button>
        </div>
        <div className="modal-body">
          {loaded.state === 'loading' && <p className="muted">Reading the transcript…</p>}
          {loaded.state === 'error' && <InlineError message={loaded.message} />}
          {loaded.state === 'ready' && !loaded.view.available && (
            <p className="muted" data-testid="conversation-unavailable">
              {loaded.view.reason ?? 'The conversation cannot be read.'}
            </p>
          )}
          {loaded.state === 'ready' && loaded.view.available && (
            <ol className="conversation-list" tabIndex={0} aria-label="Messages" data-testid="conversation-messages">
              {loaded.view.messages.map((m, i) => (
                <li key={i} className={`conversation-message conversation-${m.role}${m.at_call ? ' at-call' : ''}`} data-role={m.role} data-at-call={m.at_call === true ? 'true' : undefined} aria-current={m.at_call ? 'true' : undefined} data-testid="conversation-message">
                  <span className="why-label">
                    {ROLE_NAMES[m.role]}
                    {m.at_call && <span className="conversation-call-mark"> · this call</span>}
                  </span>
                  <span className="conversation-text">{m.text}</span>
                </li>
              ))}
            </ol>
          )}
        </div>
      </div>
    </div>
  );
}
