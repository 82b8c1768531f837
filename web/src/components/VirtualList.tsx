// Renders only the rows in view (plus a margin), so lists of thousands of
// issues scroll smoothly. Rows have a fixed height; the container scrolls.
import { type ReactNode, type UIEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';

interface Props<T> {
  items: T[];
  rowHeight: number;
  render: (item: T, index: number) => ReactNode;
  itemKey: (item: T) => string;
  className?: string;
  overscan?: number;
  /** Scrolls so this index is visible whenever it changes. */
  scrollTo?: number;
  label?: string;
}

export function VirtualList<T>({
  items,
  rowHeight,
  render,
  itemKey,
  className,
  overscan = 8,
  scrollTo,
  label,
}: Props<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    setHeight(el.clientHeight);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!el || scrollTo === undefined || scrollTo < 0) return;
    const top = scrollTo * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + el.clientHeight)
      el.scrollTop = top + rowHeight - el.clientHeight;
  }, [scrollTo, rowHeight]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const item = items[i] as T;
    rows.push(
      <li
        key={itemKey(item)}
        className="vrow"
        style={{ transform: `translateY(${i * rowHeight}px)`, height: rowHeight }}
      >
        {render(item, i)}
      </li>,
    );
  }
  return (
    <div
      ref={ref}
      className={`vlist ${className ?? ''}`}
      onScroll={(e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <ul aria-label={label} className="vlist-inner" style={{ height: items.length * rowHeight }}>
        {rows}
      </ul>
    </div>
  );
}
