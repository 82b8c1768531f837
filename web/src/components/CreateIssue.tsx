import { Dialog } from './ui';
export function CreateIssueDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="New issue" onClose={onClose}>
      todo
    </Dialog>
  );
}
