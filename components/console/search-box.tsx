'use client';

import { useEffect, useId, useState } from 'react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { Input, Label } from '@/components/ui/field';
import { searchText } from '@/lib/console/search-text';

/** The list's search text as the URL holds it (`?q=`), so a search survives a reload and can be shared. */
export function useSearchText(): string | undefined {
  return searchText(useSearchParams().get('q'));
}

/**
 * A list's search field: what is typed goes to the URL's `q` once typing pauses (or on Enter), replacing the
 * history entry, and the list reads it back with `useSearchText`. Lives in the page's filter bar.
 */
export function SearchBox({ label, placeholder }: { label: string; placeholder: string }) {
  const id = useId();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const current = params.get('q') ?? '';
  const [text, setText] = useState(current);

  const apply = (value: string) => {
    const next = new URLSearchParams(params);
    if (value.trim()) next.set('q', value.trim());
    else next.delete('q');
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };

  // One request per pause in typing, not per keystroke.
  useEffect(() => {
    if (text.trim() === current.trim()) return;
    const timer = setTimeout(() => apply(text), 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `apply` reads the params of this render
  }, [text, current]);

  return (
    <form
      role="search"
      className="w-full sm:w-72"
      onSubmit={(event) => {
        event.preventDefault();
        apply(text);
      }}
    >
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="search"
        className="mt-1"
        maxLength={100}
        placeholder={placeholder}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </form>
  );
}
