-- Two costs of every silence write (a comment edit is the common one), neither of which changes what is stored.
--
-- 1. The same search text as before, computed by PL/pgSQL instead of SQL. PostgreSQL cannot inline the SQL
-- function (it holds a subquery), so every statement that wrote a silence read its body from the catalogue,
-- tried to inline it, then planned the subquery again before computing the stored column: 0.1-0.2 ms of the
-- database's time in a comment edit that otherwise costs about 0.3 ms (pgbench, one client). A PL/pgSQL function
-- is compiled once per session and its loop holds only simple expressions, which run without the executor. The
-- stored values do not change: lib/db/search-text.test.ts compares the two functions over generated input.
CREATE OR REPLACE FUNCTION "silence_search_text"("comment" text, "matchers" jsonb) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
  search_text text := "comment";
  line text;
BEGIN
  FOR i IN 0 .. coalesce(jsonb_array_length("matchers"), 0) - 1 LOOP
    line := E'\n' || ("matchers" -> i ->> 'label') || E'\n' || ("matchers" -> i ->> 'value');
    IF line IS NOT NULL THEN
      search_text := search_text || line;
    END IF;
  END LOOP;
  RETURN search_text;
END
$$;
--> statement-breakpoint
-- 2. New trigrams wait in a small pending list (64 kB, PostgreSQL's smallest) instead of going straight into the
-- trigram index. An edit then appends its row's trigrams to one page instead of inserting each into the posting
-- list of a trigram that many other rows share; the list moves into the index in one sorted pass once it is full,
-- or at a vacuum. A search reads the whole list: at 64 kB that is a few hundred rows' trigrams, where 4 MB
-- (the default, which migration 0015 turned off) cost 3 ms. Measured under the bench's silence PATCH on
-- PostgreSQL: 0.93-1.0 ms of database CPU a request against 1.15 with the list off.
ALTER INDEX "silences_search_text_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
