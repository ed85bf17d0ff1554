'use client';

import { useId, useRef, useState } from 'react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { FieldError, Input, Label } from '@/components/ui/field';
import { parseFilter } from '@/lib/silences/filter';
import { filterProblem, matcherText } from './alert-model';

/** The page's filters as the URL holds them (`?filter=`, repeatable), so a filtered view survives a reload. */
export function useAlertFilters(): string[] {
  return useSearchParams().getAll('filter');
}

/**
 * Alertmanager's matcher filter: each added matcher becomes a removable chip and a `filter=` of the request; every
 * one must match. A refused entry is said under the field, and nothing is asked of the server.
 */
export function AlertFilter() {
  const id = useId();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = params.getAll('filter');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const replace = (next: string[]) => {
    const search = new URLSearchParams(params);
    search.delete('filter');
    for (const f of next) search.append('filter', f);
    const query = search.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };

  const add = () => {
    const found = filterProblem(text);
    setProblem(found);
    if (found) return;
    const normal = matcherText(parseFilter(text)!);
    if (!filters.includes(normal)) replace([...filters, normal]);
    setText('');
  };

  return (
    <div className="w-full space-y-2">
      <form
        role="search"
        aria-label="Filter alerts"
        className="flex flex-wrap items-start gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
      >
        <div className="w-full sm:w-80">
          <Label htmlFor={id}>Filter by matcher</Label>
          <Input
            id={id}
            ref={input}
            className="mt-1 font-mono"
            maxLength={2048}
            placeholder='severity="critical"'
            value={text}
            invalid={!!problem}
            aria-describedby={`${id}-error`}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => {
              setText(event.target.value);
              setProblem(null);
            }}
          />
          <FieldError compact id={`${id}-error`} message={problem ?? undefined} />
        </div>
        <Button type="submit" variant="secondary" className="sm:mt-6">
          Add filter
        </Button>
      </form>
      {/* The list below changes with each filter: said to screen readers, as a toast would say a change. */}
      <p role="status" className="sr-only">
        {filters.length === 0 ? 'Showing every alert.' : `Showing alerts matching ${filters.join(' and ')}.`}
      </p>
      {filters.length > 0 && (
        <ul aria-label="Filters" className="flex flex-wrap gap-2">
          {filters.map((f, i) => (
            <li
              key={f}
              className="inline-flex max-w-full items-center gap-1 rounded-md bg-indigo-50 py-0.5 pl-2 pr-0.5 font-mono text-xs text-indigo-900 ring-1 ring-inset ring-indigo-300"
            >
              <span className="[overflow-wrap:anywhere]">{f}</span>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove filter ${f}`}
                onClick={() => {
                  replace(filters.filter((_, j) => j !== i));
                  // The chip goes away with its button: focus returns to the field.
                  input.current?.focus();
                }}
              >
                ×
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
