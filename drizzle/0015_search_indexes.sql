-- The trigram indexes write each new row straight into the index instead of a pending list. PGlite has no
-- autovacuum to flush that list, and PostgreSQL's flushes it only now and then: every search read the whole
-- list (up to gin_pending_list_limit, 4 MB) row by row, 3 ms for one match among 100,000 silences.
ALTER INDEX "api_keys_name_search_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "silences_search_idx" SET (fastupdate = off);--> statement-breakpoint
-- What is already pending moves into the index now; the setting only stops new rows from waiting there.
SELECT gin_clean_pending_list('api_keys_name_search_idx');--> statement-breakpoint
SELECT gin_clean_pending_list('silences_search_idx');
--> statement-breakpoint
-- A key's prefix across organizations, for the search's prefix arm: the organization's own (organization_id, prefix)
-- index shares its first column with the list indexes, and a planner without statistics for an organization's new
-- rows read one of those instead, every key of the organization. Prefixes are random: few match in any tenant.
CREATE INDEX "api_keys_prefix_idx" ON "api_keys" USING btree ("prefix" text_pattern_ops) WHERE "api_keys"."revoked_at" is null;
