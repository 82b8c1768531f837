// `?`: every keyboard shortcut, from the one table the handlers use.
import { keyLabel, SHORTCUTS } from '../lib/keys';
import { Dialog, Kbd } from './ui';

export function ShortcutHelp({ onClose }: { onClose: () => void }) {
  const places = [...new Set(SHORTCUTS.map((s) => s.where))];
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose}>
      <div className="dialog-body shortcut-help">
        {places.map((where) => (
          <section key={where} aria-label={where}>
            <h3>{where}</h3>
            <dl>
              {SHORTCUTS.filter((s) => s.where === where).map((s) => (
                <div key={s.id} className="shortcut">
                  <dt>
                    {s.keys.map((k, n) => (
                      <span key={k}>
                        {n > 0 && <span className="muted"> or </span>}
                        <Kbd>{keyLabel(k)}</Kbd>
                      </span>
                    ))}
                  </dt>
                  <dd>{s.does}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
