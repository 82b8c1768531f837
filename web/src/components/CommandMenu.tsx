import { Dialog } from './ui';
export function CommandMenu({ onClose }: { onClose: () => void; onCreate: () => void }) {
  return (
    <Dialog title="Command menu" onClose={onClose}>
      todo
    </Dialog>
  );
}
